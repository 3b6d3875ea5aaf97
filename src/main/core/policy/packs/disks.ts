import type { Pack } from './types.js';

/** Disks and file systems. */
export const disksPack: Pack = {
  id: 'disks',
  description: 'Disks and file systems beyond mkfs and partition tables (built in): diskutil erase/partition, newfs, badblocks -w, lvreduce / lvresize shrinking, resize2fs / xfs_growfs shrinking, e2fsck -y on a device, tune2fs, mkswap / shred of a device (mkswap of a file and shred of a file outside system folders stay allowed).',
  rules: String.raw`
[[rule]]
id = "diskutil-erase"
reason = "erases, partitions or unmounts a disk (macOS diskutil)"
commands = ["diskutil"]
subcommand = ["eraseDisk|eraseVolume|partitionDisk|zeroDisk|randomDisk|secureErase|reformat|apfs|unmountDisk|resizeVolume|splitPartition|mergePartitions"]

[[rule]]
id = "newfs"
reason = "creates a file system (erases what is there)"
commands = ["newfs", "newfs_apfs", "newfs_hfs", "newfs_msdos", "newfs_exfat"]

[[rule]]
id = "badblocks-write"
reason = "badblocks -w overwrites the whole device"
commands = ["badblocks"]
flags_any = ["-w", "-n"]

[[rule]]
id = "volume-shrink"
reason = "shrinks a volume or file system (data past the new end is lost)"
commands = ["lvreduce", "lvresize", "resize2fs", "xfs_growfs", "btrfs", "e2fsck", "fsck", "tune2fs", "zpool", "vgreduce"]
argv_any = '^(?:lvreduce|vgreduce)\b|^lvresize (?:\S+ )*-L ?-|^resize2fs (?:\S+ )*\S+ \d+[KMGTs]?$|^btrfs filesystem resize -|^(?:e2fsck|fsck) (?:\S+ )*-[a-zA-Z]*y|^tune2fs (?:\S+ )*-[OIU]|^zpool (?:destroy|labelclear|detach|offline)'

[[rule]]
id = "device-overwrite"
reason = "mkswap / shred / wipefs on a block device erases it"
commands = ["mkswap", "shred", "wipefs", "blkdiscard"]
args_any = '^/dev/'
`,
};
