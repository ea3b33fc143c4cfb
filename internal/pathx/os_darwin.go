package pathx

// APFS and HFS+ are case-insensitive by default.
const isWindows, foldCase = false, true
