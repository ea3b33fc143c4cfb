package pathx

// NTFS is case-insensitive by default.
const isWindows, foldCase = true, true
