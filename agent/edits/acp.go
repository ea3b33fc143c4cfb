package edits

// ACPDiff gives the fields of an ACP "diff" tool-call content block: the
// path, the old text (nil when the file is being created, which ACP shows
// as a new file) and the new text (empty for a deletion).
func ACPDiff(fe FileEdit) (path string, oldText *string, newText string) {
	if fe.Create {
		return fe.Path, nil, fe.New
	}
	old := fe.Old
	if fe.Delete {
		return fe.Path, &old, ""
	}
	return fe.Path, &old, fe.New
}
