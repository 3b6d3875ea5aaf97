export const title = 'Disks and file systems: devices overwritten, formatted, partitioned, wiped, shrunk';
export default ({ bad, ok }) => {
  const W = ['sudo', 'sh -c', 'subshell', 'and', 'function'];
  for (const l of ['dd if=/dev/zero of=/dev/sda', 'dd if=/dev/urandom of=/dev/nvme0n1 bs=1M', 'dd if=image.iso of=/dev/sdb status=progress', 'dd of=/dev/mmcblk0 if=raspios.img']) bad('ask', 'dd-to-device', l, W);
  for (const l of ['cat image.iso > /dev/sdb', 'echo x > /dev/sda1', 'head -c 1M /dev/zero > /dev/nvme0n1']) bad('ask', 'write-to-block-device', l, W);
  for (const l of ['cp image.iso /dev/sdb', 'tee /dev/sda < /dev/zero']) bad('ask', 'write-device', l, W);
  for (const l of ['mkfs.ext4 /dev/sdb1', 'mkfs -t xfs /dev/sdc', 'mkfs.vfat /dev/sdb', 'mke2fs /dev/sda2', 'wipefs -a /dev/sda', 'blkdiscard /dev/nvme0n1', 'mkfs.btrfs -f /dev/sdd', 'mkntfs -f /dev/sde1', 'zpool create tank /dev/sdb']) bad('ask', 'mkfs', l, W);
  for (const l of ['fdisk /dev/sda', 'sfdisk /dev/sda < layout', 'parted -s /dev/sda mklabel gpt', 'parted /dev/sdb rm 1', 'gdisk /dev/nvme0n1', 'sgdisk -n 1:0:0 /dev/sdb']) bad('ask', 'partition-table', l, W);
  for (const l of ['sgdisk --zap-all /dev/sda', 'sgdisk -Z /dev/sdb']) bad('ask', 'partition-table', l, W);
  for (const l of ['cryptsetup luksFormat /dev/sdb1', 'cryptsetup erase /dev/sdb1', 'cryptsetup luksKillSlot /dev/sda2 0']) bad('ask', 'luks-format', l, W);
  for (const l of ['lvremove -f vg0/data', 'vgremove vg0', 'pvremove /dev/sdb', 'mdadm --zero-superblock /dev/sdb', 'mdadm --stop /dev/md0', 'zfs destroy -r tank/data', 'btrfs subvolume delete /mnt/@home', 'hdparm --security-erase p /dev/sda', 'nvme format /dev/nvme0n1']) bad('ask', 'volume-destroy', l, W);
  for (const l of ['diskutil eraseDisk APFS X disk2', 'diskutil eraseVolume JHFS+ Y disk3s1', 'diskutil partitionDisk disk2 GPT JHFS+ A 100%', 'diskutil zeroDisk disk2', 'diskutil apfs deleteContainer disk3']) bad('ask', 'disks/diskutil-erase', l, W);
  for (const l of ['newfs /dev/disk2', 'newfs_apfs /dev/disk3s1', 'newfs_msdos -F 32 /dev/disk2s1']) bad('ask', 'disks/newfs', l, W);
  for (const l of ['badblocks -w /dev/sdb', 'badblocks -wsv /dev/sdc', 'badblocks -n /dev/sdd']) bad('ask', 'disks/badblocks-write', l, W);
  for (const l of ['lvreduce -L 1G vg/lv', 'lvresize -L -10G vg/data', 'resize2fs /dev/sda1 1G', 'e2fsck -y /dev/sdb1', 'fsck -fy /dev/sda2', 'tune2fs -O ^has_journal /dev/sdb1', 'btrfs filesystem resize -20g /']) bad('ask', 'disks/volume-shrink', l, W);
  bad('ask', 'mkfs', 'zpool destroy tank', W);
  bad('ask', 'mkfs', 'zpool labelclear /dev/sdb', W);
  for (const l of ['mkswap /dev/sdb2', 'shred /dev/sda', 'shred -n 3 -z /dev/nvme0n1']) bad('ask', l.startsWith('mkswap') ? 'disks/device-overwrite' : 'write-device', l, W);

  for (const l of ['lsblk', 'lsblk -f', 'df -h', 'du -sh .', 'fdisk -l', 'sfdisk -l /dev/sda', 'parted -l', 'parted /dev/sda print', 'blkid', 'mkswap /swapfile', 'swapon /swapfile', 'dd if=/dev/zero of=swapfile bs=1M count=1024', 'dd if=/dev/sda of=disk.img bs=4M',
    'dd if=/dev/urandom of=/dev/null bs=1M count=100', 'dd if=in.bin of=out.bin', 'shred -u /tmp/secret.txt', 'diskutil list', 'diskutil info disk2', 'zpool status', 'zpool list', 'zfs list', 'btrfs filesystem df /', 'cryptsetup status cryptroot',
    'smartctl -a /dev/sda', 'hdparm -I /dev/sda', 'nvme list', 'lvs', 'vgs', 'pvs', 'e2fsck -n /dev/sdb1', 'tune2fs -l /dev/sda1', 'mdadm --detail /dev/md0', 'badblocks -sv /dev/sdb', 'mkfs.ext4 --help', 'truncate -s 1G disk.img',
    'losetup -a', 'cat /proc/partitions', 'findmnt', 'iostat -x 1 3',
  ]) ok(l);
};
