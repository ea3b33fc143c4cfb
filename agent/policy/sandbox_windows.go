package policy

// noKernelSandbox says why commands always run unconfined here: this
// release of tandem has no kernel sandbox for Windows, so every command
// full-auto would have run unasked asks instead.
const noKernelSandbox = "Windows has no kernel sandbox in this release of tandem, so commands run unconfined"
