package treesitter

import "testing"

func TestForPath(t *testing.T) {
	tests := []struct{ path, want string }{
		{"main.go", "go"}, {"a/b/x.py", "python"}, {"x.js", "javascript"}, {"x.mjs", "javascript"},
		{"x.cjs", "javascript"}, {"x.jsx", "javascript"}, {"x.ts", "typescript"}, {"x.mts", "typescript"},
		{"x.cts", "typescript"}, {"x.tsx", "tsx"}, {"x.rs", "rust"}, {"X.java", "java"}, {"x.c", "c"},
		{"x.h", "c"}, {"x.cc", "cpp"}, {"x.cpp", "cpp"}, {"x.cxx", "cpp"}, {"x.hpp", "cpp"}, {"x.hh", "cpp"},
		{"x.rb", "ruby"}, {"x.cs", "csharp"}, {"x.php", "php"}, {"x.kt", "kotlin"}, {"x.swift", "swift"},
		{"x.scala", "scala"}, {"x.lua", "lua"}, {"x.sh", "bash"}, {"X.GO", "go"},
		{"README.md", ""}, {"Makefile", ""}, {".gitignore", ""}, {"x.", ""},
	}
	for _, tt := range tests {
		got := ""
		if l := ForPath(tt.path); l != nil {
			got = l.Name
		}
		if got != tt.want {
			t.Errorf("ForPath(%q) = %q, want %q", tt.path, got, tt.want)
		}
	}
}

func TestRegistryUnique(t *testing.T) {
	seenExt, seenName := map[string]string{}, map[string]bool{}
	for _, l := range Languages() {
		if seenName[l.Name] {
			t.Errorf("language %s registered twice", l.Name)
		}
		seenName[l.Name] = true
		for _, e := range l.Extensions {
			if other, ok := seenExt[e]; ok {
				t.Errorf("extension %s claimed by %s and %s", e, other, l.Name)
			}
			seenExt[e] = l.Name
		}
		if ByName(l.Name) != l {
			t.Errorf("ByName(%q) does not return the registry entry", l.Name)
		}
	}
}
