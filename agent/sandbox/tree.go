package sandbox

import "github.com/tandemhq/tandem/internal/proc"

// Tree is the process tree the command runs as (nil before Start): ending
// it ends every process the command started.
func (c *Cmd) Tree() *proc.Tree { return c.tree }
