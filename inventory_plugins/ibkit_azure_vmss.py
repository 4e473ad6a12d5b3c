# -*- coding: utf-8 -*-
# The VM scale sets ibkit provisions and validates, listed by azure.azcollection's azure_rm
# inventory plugin with three changes that plugin cannot be configured into (collection 1.16,
# Debian 12's, up to at least 2.3):
#   1. Flexible scale sets: their instances are ordinary VMs (Microsoft.Compute/virtualMachines
#      with properties.virtualMachineScaleSet.id); the Uniform-only "list scale-set VMs" call is
#      never made for them (azure.azcollection issue #1431), and each VM is tied to its set.
#   2. The size of every instance: a Flexible VM has hardwareProfile.vmSize, a Uniform instance
#      only the scale set's sku (azure_rm exposes neither the sku nor the set's tags).
#   3. Scope: only the scale sets named (by name and/or tags) in the resource groups named;
#      never the whole subscription, never a standalone VM, never an AKS node pool.
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
    name: ibkit_azure_vmss
    short_description: ibkit's nodes from Azure VM scale sets (Uniform and Flexible), through azure_rm
    extends_documentation_fragment:
      - azure.azcollection.azure
      - azure.azcollection.azure_rm
      - constructed
    description:
      - azure.azcollection's azure_rm inventory plugin, scoped to the scale sets ibkit validates and aware of
        Flexible orchestration. Every option of azure_rm applies, except the two resource-group lists, which
        come from ibkit_resource_groups.
      - Adds to each host C(ibkit_vm_size) (the VM size, for both orchestration modes) and, under C(vmss),
        C(orchestration_mode), C(sku) and C(tags) of the scale set.
      - Requires a configuration file whose name ends with azure_rm.yml (or .yaml).
    options:
      plugin:
        description: marks this as an instance of this plugin
        required: true
        choices: [ibkit_azure_vmss]
      ibkit_resource_groups:
        description:
          - Resource groups that hold the scale sets and, for Flexible sets, their VMs. Listed one by one;
            '*' (the whole subscription) is refused.
        type: list
        elements: str
        required: true
      ibkit_scale_sets:
        description:
          - Names of the scale sets to take (case-insensitive). Empty takes every scale set in
            ibkit_resource_groups that ibkit_scale_set_tags selects.
        type: list
        elements: str
        default: []
      ibkit_scale_set_tags:
        description:
          - Tags a scale set must carry, every one with this value, to be taken (the scale set's own tags,
            which Uniform instances do not repeat). Empty selects by name alone.
        type: dict
        default: {}
      ibkit_compute_api_version:
        description:
          - Compute API version of every Microsoft.Compute request. Flexible orchestration and a VM's
            virtualMachineScaleSet reference need 2021-03-01 or later; azure_rm 1.16 asks for 2017-03-30.
        type: str
        default: "2023-09-01"
"""

EXAMPLES = r"""
# inventory/azure/azure_rm.yml
plugin: ibkit_azure_vmss
auth_source: cli
ibkit_resource_groups: [hpc-rg]
ibkit_scale_set_tags: {ibkit: nodes}
plain_host_names: true
conditional_groups:
  ibkit_nodes: true
"""

import os
import re

from ansible.errors import AnsibleError, AnsibleParserError

try:
    from ansible_collections.azure.azcollection.plugins.inventory.azure_rm import AzureHost
    from ansible_collections.azure.azcollection.plugins.inventory.azure_rm import InventoryModule as AzureRMInventory
except ImportError as error:  # the collection is missing: say so when the plugin is used
    _IMPORT_ERROR = error
    AzureRMInventory = object
    AzureHost = object
else:
    _IMPORT_ERROR = None

# AKS node pools are scale sets too; AKS tags every one it creates with aks-managed-* tags.
_AKS_TAG = re.compile(r"^aks-managed-", re.IGNORECASE)
_AKS_NAME = re.compile(r"^aks-.+-vmss$", re.IGNORECASE)


def _lower(value):
    return (value or "").lower()


def is_aks_pool(vmss):
    """True for a scale set AKS created for a node pool (by its aks-managed-* tags or its name)."""
    tags = vmss.get("tags") or {}
    return any(_AKS_TAG.match(key) for key in tags) or bool(_AKS_NAME.match(vmss.get("name", "")))


def vmss_summary(vmss_model, vmss_id):
    """The scale set as the hosts see it (hostvar vmss): id, name, orchestration mode, sku, tags.
    Without a model (a Flexible VM whose set is outside ibkit_resource_groups) the name comes from the id."""
    if vmss_model is None:
        return dict(id=vmss_id, name=vmss_id.rstrip("/").split("/")[-1], orchestration_mode="Flexible",
                    sku=None, tags={})
    properties = vmss_model.get("properties") or {}
    return dict(
        id=vmss_model["id"],
        name=vmss_model["name"],
        # Scale sets created before orchestration modes existed report none: they are Uniform.
        orchestration_mode=properties.get("orchestrationMode") or "Uniform",
        sku=(vmss_model.get("sku") or {}).get("name"),
        tags=vmss_model.get("tags") or {},
    )


class IbkitAzureHost(AzureHost):
    """azure_rm's host, plus the scale set it belongs to (both modes) and its VM size."""

    def __init__(self, vm_model, inventory_client, vmss=None, legacy_name=False):
        super(IbkitAzureHost, self).__init__(vm_model, inventory_client, vmss=vmss, legacy_name=legacy_name)
        self._ibkit_client = inventory_client
        self._ibkit_done = False

    def scale_set_id(self):
        """The scale set this VM belongs to: the listing's set (Uniform) or the VM's reference (Flexible)."""
        if self._vmss:
            return self._vmss["id"]
        return ((self._vm_model.get("properties") or {}).get("virtualMachineScaleSet") or {}).get("id")

    @property
    def hostvars(self):
        hostvars = super(IbkitAzureHost, self).hostvars
        if not self._ibkit_done:
            self._ibkit_done = True
            vmss_id = self.scale_set_id()
            model = self._vmss or (self._ibkit_client.ibkit_scale_set(vmss_id) if vmss_id else None)
            vmss = vmss_summary(model, vmss_id) if vmss_id else {}
            hostvars["vmss"] = vmss
            # A Flexible VM has its own hardwareProfile; a Uniform instance carries the set's sku.
            size = ((self._vm_model.get("properties") or {}).get("hardwareProfile") or {}).get("vmSize")
            size = size or (self._vm_model.get("sku") or {}).get("name") or vmss.get("sku")
            hostvars["ibkit_vm_size"] = size
        return hostvars


class InventoryModule(AzureRMInventory):
    NAME = "ibkit_azure_vmss"

    def __init__(self):
        if _IMPORT_ERROR is not None:
            raise AnsibleError(
                "ibkit_azure_vmss needs the azure.azcollection collection (Debian: apt-get install ansible; "
                "elsewhere: ansible-galaxy collection install azure.azcollection): %s" % _IMPORT_ERROR)
        super(InventoryModule, self).__init__()
        self._ibkit_scale_sets_by_id = {}

    def _read_config_data(self, path):
        config = super(InventoryModule, self)._read_config_data(path)
        groups = self.get_option("ibkit_resource_groups") or []
        for variable in ("ANSIBLE_AZURE_VM_RESOURCE_GROUPS", "ANSIBLE_AZURE_VMSS_RESOURCE_GROUPS"):
            if os.environ.get(variable):
                # azure_rm lets these widen the listing past the configuration; the scope is the file's.
                raise AnsibleParserError(
                    "%s: %s is set; ibkit_azure_vmss lists only ibkit_resource_groups: unset it" % (path, variable))
        for option in ("include_vm_resource_groups", "include_vmss_resource_groups"):
            if option in config:
                raise AnsibleParserError(
                    "%s: %s is set by ibkit_azure_vmss from ibkit_resource_groups; remove it" % (path, option))
        if not groups or any(not group or "*" in group for group in groups):
            raise AnsibleParserError(
                "%s: ibkit_resource_groups must name the resource groups of your scale sets, one by one "
                "(not '*': the whole subscription would include every scale set, AKS node pools too); it is %s"
                % (path, groups))
        self.set_option("include_vm_resource_groups", list(groups))
        self.set_option("include_vmss_resource_groups", list(groups))
        self._compute_api_version = self.get_option("ibkit_compute_api_version")
        self._ibkit_names = {_lower(name) for name in self.get_option("ibkit_scale_sets") or []}
        self._ibkit_tags = dict(self.get_option("ibkit_scale_set_tags") or {})
        return config

    def _get_hosts(self):
        super(InventoryModule, self)._get_hosts()
        # Hosts join "all" only when the whole inventory is reconciled; inventory/azure's next
        # source (sku_groups.yml, constructed) needs group_vars/all on them already.
        for name in list(self.inventory.hosts):
            self.inventory.add_child("all", name)

    def ibkit_scale_set(self, vmss_id):
        """The listed model of a scale set by its id, or None when it was not listed."""
        return self._ibkit_scale_sets_by_id.get(_lower(vmss_id))

    def ibkit_takes(self, vmss):
        """Whether a scale set (its model) is one ibkit provisions: never an AKS pool; by name and tags."""
        if is_aks_pool(vmss):
            return False
        if self._ibkit_names and _lower(vmss.get("name")) not in self._ibkit_names:
            return False
        tags = vmss.get("tags") or {}
        return all(str(tags.get(key)) == str(value) for key, value in self._ibkit_tags.items())

    def _on_vmss_page_response(self, response):
        next_link = response.get("nextLink")
        if next_link:
            self._enqueue_get(url=next_link, api_version=self._compute_api_version, handler=self._on_vmss_page_response)
        for vmss in response.get("value", []):
            self._ibkit_scale_sets_by_id[_lower(vmss["id"])] = vmss
            if not self.ibkit_takes(vmss):
                continue
            if ((vmss.get("properties") or {}).get("orchestrationMode") or "Uniform") == "Flexible":
                continue  # its VMs come from the VM listing of the same resource groups
            self._enqueue_get(url="{0}/virtualMachines".format(vmss["id"]), api_version=self._compute_api_version,
                              handler=self._on_vm_page_response, handler_args=dict(vmss=vmss))

    def _on_vm_page_response(self, response, vmss=None):
        next_link = response.get("nextLink")
        if next_link:
            self._enqueue_get(url=next_link, api_version=self._compute_api_version, handler=self._on_vm_page_response,
                              handler_args=dict(vmss=vmss) if vmss else None)
        for vm in response.get("value", []):
            # A standalone VM (the controller, a jump host) is never a node: no instance view, no NICs fetched.
            if vmss is None and not ((vm.get("properties") or {}).get("virtualMachineScaleSet") or {}).get("id"):
                continue
            self._hosts.append(IbkitAzureHost(vm, self, vmss=vmss, legacy_name=self._legacy_hostnames))

    def _filter_host(self, inventory_hostname, hostvars):
        # Only instances of a scale set listed in ibkit_resource_groups and taken by name and tags;
        # a Flexible VM whose set lies in another resource group is out of scope too.
        model = self.ibkit_scale_set((hostvars.get("vmss") or {}).get("id"))
        if model is None or not self.ibkit_takes(model):
            return True
        return super(InventoryModule, self)._filter_host(inventory_hostname, hostvars)
