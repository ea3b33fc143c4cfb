package main

import "testing"

func TestOutsideRemoval(t *testing.T) {
	root := "/work/repo"
	for cmd, bad := range map[string]bool{
		"rm -rf build":                   false,
		"rm -rf ./build dist":            false,
		"rm -r build":                    false,
		"rm -f /tmp/x":                   false,
		"rm -rf /":                       true,
		"rm -rf ..":                      true,
		"rm -fr ../other":                true,
		"rm -r -f /etc":                  true,
		"rm --recursive --force ~/x":     true,
		"cd x && sudo rm -Rf \"/opt/y\"": true,
		"rm -rf $HOME/build":             true,
		"rm -rf .":                       true,
		"echo rm -rf /":                  false,
	} {
		if _, got := outsideRemoval(cmd, root); got != bad {
			t.Errorf("%q: refused %v, want %v", cmd, got, bad)
		}
	}
}
