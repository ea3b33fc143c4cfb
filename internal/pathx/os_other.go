//go:build !windows && !darwin

package pathx

// Linux and the BSDs compare names byte for byte.
const isWindows, foldCase = false, false
