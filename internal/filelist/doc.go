// Package filelist enumerates the files of a workspace the way git would
// show them: inside a git work tree it asks `git ls-files`, elsewhere it
// walks the tree applying every nested .gitignore. The agent's file tools
// and the code index both list files through it, so the two never disagree
// about what counts as part of the workspace.
//
// It only reads: it must never write, create or delete anything in the
// tree, never follow a symbolic link into a directory (that could loop or
// leave the root), and never print; problems come back to the caller.
package filelist
