"""The Azure subscription fake_arm.py serves, built in the shapes of Azure's Compute (2023-09-01)
and Network REST API reference: VirtualMachineScaleSet, VirtualMachineScaleSetVM, VirtualMachine,
*InstanceView and NetworkInterface. What is in it, and what the inventory must make of it:

resource group ibkit-rg (the one inventory/azure/azure_rm.yml names):
  hbv3-uni      Uniform, tag ibkit=nodes, Standard_HB120rs_v3: instances 0 and 1 running, 2 deallocated
  ndh100-flex   Flexible, tag ibkit=nodes, Standard_ND96isr_H100_v5: VMs ndh100-flex_1a2b3c4d and
                ndh100-flex_5e6f7a8b running, ndh100-flex_9c0d1e2f stopped
  hc-legacy     Uniform from before orchestration modes (no orchestrationMode), no ibkit tag, HC44rs
  aks-nodepool1-12345678-vmss   an AKS node pool (aks-managed-* tags), tag ibkit=nodes on top
  controller    a standalone VM (the Ansible controller): in no scale set
resource group MC_aks-rg_aks_eastus: AKS's own node resource group, another pool
resource group other-rg: a Flexible set tagged ibkit=nodes that no inventory here names

Listing the VMs of a Flexible set through the Uniform-only "Virtual Machine Scale Set VMs - List"
answers with an ARM error (OperationNotAllowed). The REST reference does not document that
answer; what matters to the test is that the inventory never asks (the request log shows it).
"""

SUBSCRIPTION_ID = "6d2a9f1c-3b4e-4c5d-8e7f-0a1b2c3d4e5f"
LOCATION = "eastus"
SUB = "/subscriptions/" + SUBSCRIPTION_ID
IMAGE = {"publisher": "microsoft-dsvm", "offer": "ubuntu-hpc", "sku": "2204", "version": "22.04.2024061001",
         "exactVersion": "22.04.2024061001"}
TIME = "2024-06-20T08:14:03.1234567+00:00"

# name, group, mode (None: created before orchestration modes), size, tags,
# instances: (name suffix / instance id, power state, private IP)
SCALE_SETS = [
    ("hbv3-uni", "ibkit-rg", "Uniform", "Standard_HB120rs_v3", {"ibkit": "nodes", "project": "cfd"},
     [("0", "running", "10.0.1.4"), ("1", "running", "10.0.1.5"), ("2", "deallocated", "10.0.1.6")]),
    ("ndh100-flex", "ibkit-rg", "Flexible", "Standard_ND96isr_H100_v5", {"ibkit": "nodes"},
     [("1a2b3c4d", "running", "10.0.2.4"), ("5e6f7a8b", "running", "10.0.2.5"), ("9c0d1e2f", "stopped", "10.0.2.6")]),
    ("hc-legacy", "ibkit-rg", None, "Standard_HC44rs", {"project": "legacy"},
     [("0", "running", "10.0.3.4")]),
    ("aks-nodepool1-12345678-vmss", "ibkit-rg", "Uniform", "Standard_D4s_v5",
     {"aks-managed-poolName": "nodepool1", "aks-managed-orchestrator": "Kubernetes:1.29.4",
      "aks-managed-createOperationID": "5b7c1e2a-0f3d-4a6b-9c8d-7e6f5a4b3c2d", "ibkit": "nodes"},
     [("0", "running", "10.224.0.4")]),
    ("aks-system-87654321-vmss", "MC_aks-rg_aks_eastus", "Uniform", "Standard_D4s_v5",
     {"aks-managed-poolName": "system", "aks-managed-orchestrator": "Kubernetes:1.29.4"},
     [("0", "running", "10.224.1.4")]),
    ("other-flex", "other-rg", "Flexible", "Standard_HB176rs_v4", {"ibkit": "nodes"},
     [("0f1e2d3c", "running", "10.1.0.4")]),
]
STANDALONE_VMS = [("controller", "ibkit-rg", "Standard_D4s_v5", "running", "10.0.0.4")]


def group_id(group):
    return "%s/resourceGroups/%s" % (SUB, group)


def vmss_id(name, group):
    return "%s/providers/Microsoft.Compute/virtualMachineScaleSets/%s" % (group_id(group), name)


def vm_id(name, group):
    return "%s/providers/Microsoft.Compute/virtualMachines/%s" % (group_id(group), name)


def subnet_id(group):
    return "%s/providers/Microsoft.Network/virtualNetworks/%s-vnet/subnets/default" % (group_id(group), group)


def storage_profile(disk_id=None, disk_name="osdisk"):
    return {"imageReference": dict(IMAGE),
            "osDisk": {"osType": "Linux", "name": disk_name, "createOption": "FromImage", "caching": "ReadWrite",
                       "managedDisk": {"storageAccountType": "Premium_LRS", **({"id": disk_id} if disk_id else {})},
                       "diskSizeGB": 64},
            "dataDisks": []}


def os_profile(computer_name):
    return {"computerName": computer_name, "adminUsername": "azureuser",
            "linuxConfiguration": {"disablePasswordAuthentication": True, "provisionVMAgent": True,
                                   "ssh": {"publicKeys": [{"path": "/home/azureuser/.ssh/authorized_keys",
                                                           "keyData": "ssh-ed25519 AAAAC3Nza ibkit"}]}},
            "secrets": [], "allowExtensionOperations": True, "requireGuestProvisionSignal": True}


def instance_view(power, computer_name=None):
    view = {"statuses": [
        {"code": "ProvisioningState/succeeded", "level": "Info", "displayStatus": "Provisioning succeeded", "time": TIME},
        {"code": "PowerState/" + power, "level": "Info",
         "displayStatus": {"running": "VM running", "deallocated": "VM deallocated", "stopped": "VM stopped"}[power]}]}
    if computer_name:
        view.update({"computerName": computer_name, "osName": "ubuntu", "osVersion": "22.04"})
    view.update({"platformUpdateDomain": 0, "platformFaultDomain": 0})
    return view


def nic(nic_id, name, ip, group, vm_ref):
    return {"name": name, "id": nic_id, "etag": 'W/"1f2e3d4c"', "location": LOCATION,
            "type": "Microsoft.Network/networkInterfaces",
            "properties": {"provisioningState": "Succeeded", "resourceGuid": "0c9b8a7d-6e5f-4a3b-2c1d-0e9f8a7b6c5d",
                           "ipConfigurations": [{"name": "ipconfig1", "id": nic_id + "/ipConfigurations/ipconfig1",
                                                 "properties": {"provisioningState": "Succeeded",
                                                                "privateIPAddress": ip,
                                                                "privateIPAllocationMethod": "Dynamic",
                                                                "subnet": {"id": subnet_id(group)},
                                                                "primary": True, "privateIPAddressVersion": "IPv4"}}],
                           "dnsSettings": {"dnsServers": [], "appliedDnsServers": []},
                           "macAddress": "00-0D-3A-%02X-%02X-%02X" % tuple(int(part) for part in ip.split(".")[1:]),
                           "enableAcceleratedNetworking": True, "enableIPForwarding": False, "primary": True,
                           "virtualMachine": {"id": vm_ref}}}


class Subscription:
    def __init__(self):
        self.resources = {}  # lower-case id -> (status, body)
        self.vms = []  # (group, model)
        self.sets = []  # (group, model)
        for name, group, mode, size, tags, instances in SCALE_SETS:
            self.add_scale_set(name, group, mode, size, tags, instances)
        for name, group, size, power, ip in STANDALONE_VMS:
            self.add_vm(name, group, size, power, ip, None)

    def put(self, resource_id, body, status=200):
        self.resources[resource_id.lower()] = (status, body)

    def add_scale_set(self, name, group, mode, size, tags, instances):
        set_id = vmss_id(name, group)
        properties = {"singlePlacementGroup": mode != "Flexible", "upgradePolicy": {"mode": "Manual"},
                      "provisioningState": "Succeeded", "overprovision": False,
                      "uniqueId": "3f2e1d0c-%04x-4b5a-9c8d-7e6f5a4b3c2d" % len(self.sets), "timeCreated": TIME,
                      "platformFaultDomainCount": 1,
                      "virtualMachineProfile": {"osProfile": os_profile(None) | {"computerNamePrefix": name[:9]},
                                                "storageProfile": storage_profile(),
                                                "networkProfile": {"networkInterfaceConfigurations": [
                                                    {"name": name[:9] + "Nic", "properties": {
                                                        "primary": True, "enableAcceleratedNetworking": True,
                                                        "ipConfigurations": [{"name": name[:9] + "IPConfig", "properties": {
                                                            "subnet": {"id": subnet_id(group)}}}]}}]}}}
        del properties["virtualMachineProfile"]["osProfile"]["computerName"]
        if mode is not None:
            properties["orchestrationMode"] = mode
        if mode == "Flexible":
            properties["virtualMachineProfile"]["networkProfile"]["networkApiVersion"] = "2020-11-01"
        model = {"name": name, "id": set_id, "type": "Microsoft.Compute/virtualMachineScaleSets", "location": LOCATION,
                 "tags": tags, "sku": {"name": size, "tier": "Standard", "capacity": len(instances)},
                 "properties": properties}
        self.sets.append((group, model))
        self.put(set_id, model)
        if mode == "Flexible":
            self.put(set_id + "/virtualMachines", {"error": {
                "code": "OperationNotAllowed",
                "message": "Operation 'VMScaleSetVMs.List' is not allowed on Virtual Machine Scale Set '%s' since it "
                           "is in Flexible orchestration mode." % name}}, status=400)
            for suffix, power, ip in instances:
                self.add_vm("%s_%s" % (name, suffix), group, size, power, ip, set_id)
            return
        members = []
        for index, (instance, power, ip) in enumerate(instances):
            member_id = "%s/virtualMachines/%s" % (set_id, instance)
            nic_id = "%s/networkInterfaces/%sNic" % (member_id, name[:9])
            computer = "%s%06X" % (name[:9], int(instance))
            members.append({
                "name": "%s_%s" % (name, instance), "id": member_id, "instanceId": instance,
                "type": "Microsoft.Compute/virtualMachineScaleSets/virtualMachines", "location": LOCATION,
                "sku": {"name": size, "tier": "Standard"},
                "properties": {"latestModelApplied": True, "modelDefinitionApplied": "VirtualMachineScaleSet",
                               "vmId": "7a6b5c4d-%04x-4e3f-8a9b-0c1d2e3f4a5b" % (len(self.sets) * 16 + index),
                               "storageProfile": storage_profile(disk_name="%s_%s_OsDisk" % (name, instance)),
                               "osProfile": os_profile(computer),
                               "networkProfile": {"networkInterfaces": [{"id": nic_id}]},
                               "provisioningState": "Succeeded", "timeCreated": TIME}})
            self.put(member_id + "/instanceView", instance_view(power, computer))
            self.put(nic_id, nic(nic_id, name[:9] + "Nic", ip, group, member_id))
        self.put(set_id + "/virtualMachines", {"value": members})

    def add_vm(self, name, group, size, power, ip, set_id):
        machine_id = vm_id(name, group)
        nic_id = "%s/providers/Microsoft.Network/networkInterfaces/%s-nic01" % (group_id(group), name)
        computer = name.replace("_", "")[:15]
        properties = {"vmId": "1b2c3d4e-%04x-4f5a-8b9c-0d1e2f3a4b5c" % len(self.vms),
                      "hardwareProfile": {"vmSize": size},
                      "storageProfile": storage_profile(disk_name=name + "_OsDisk"),
                      "osProfile": os_profile(computer),
                      "networkProfile": {"networkInterfaces": [{"id": nic_id, "properties": {"primary": True}}]},
                      "provisioningState": "Succeeded", "timeCreated": TIME}
        if set_id:
            properties["virtualMachineScaleSet"] = {"id": set_id}
            properties["networkProfile"]["networkApiVersion"] = "2020-11-01"
        model = {"name": name, "id": machine_id, "type": "Microsoft.Compute/virtualMachines", "location": LOCATION,
                 "tags": {}, "properties": properties}
        self.vms.append((group, model))
        self.put(machine_id, model)
        self.put(machine_id + "/instanceView", instance_view(power, computer))
        self.put(nic_id, nic(nic_id, name + "-nic01", ip, group, machine_id))


_SUBSCRIPTION = Subscription()


def virtual_machines(group):
    """VMs of a resource group (lower-case name), or of the whole subscription for None."""
    return [model for where, model in _SUBSCRIPTION.vms if group is None or where.lower() == group]


def scale_sets(group):
    return [model for where, model in _SUBSCRIPTION.sets if group is None or where.lower() == group]


def resource(lower_path):
    return _SUBSCRIPTION.resources.get(lower_path)


def cloud_metadata(base_url, audience):
    """/metadata/endpoints as Azure Stack and Azure answer it (msrestazure reads the login and audience)."""
    return {"galleryEndpoint": base_url + "/gallery/", "graphEndpoint": base_url + "/graph/",
            "portalEndpoint": base_url + "/portal/",
            "authentication": {"loginEndpoint": base_url + "/login/", "audiences": [audience]}}
