"""The ibkit virtual lab: Debian VMs under qemu joined by a private fabric segment."""
