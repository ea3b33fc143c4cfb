package codeindex

import (
	"sort"
	"sync"
)

// snapshot is one immutable state of an index. The sorted file list and
// the name table are built on first use, since a refresh that only feeds a
// single-file lookup never needs them.
type snapshot struct {
	files map[string]*File

	sortedOnce sync.Once
	sortedList []*File

	namesOnce sync.Once
	names     []nameEntry

	graphOnce sync.Once
	graph     *refGraph
}

func newSnapshot(files map[string]*File) *snapshot {
	return &snapshot{files: files}
}

// sorted returns the files ordered by path.
func (s *snapshot) sorted() []*File {
	s.sortedOnce.Do(func() {
		list := make([]*File, 0, len(s.files))
		for _, f := range s.files {
			list = append(list, f)
		}
		sort.Slice(list, func(i, j int) bool { return list[i].Path < list[j].Path })
		s.sortedList = list
	})
	return s.sortedList
}

// refGraph returns the reference graph of the snapshot's files, built once.
func (s *snapshot) refGraph() *refGraph {
	s.graphOnce.Do(func() { s.graph = buildGraph(s.sorted()) })
	return s.graph
}

// with returns a copy of s with f added or replaced.
func (s *snapshot) with(f *File) *snapshot {
	files := make(map[string]*File, len(s.files)+1)
	for k, v := range s.files {
		files[k] = v
	}
	files[f.Path] = f
	return newSnapshot(files)
}
