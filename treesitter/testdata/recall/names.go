package archive

// Several names in one spec, as archive/tar writes its format magic.
const magicGNU, versionGNU = "ustar ", " \x00"

var (
	order, width = 1, 2
)

type header struct {
	name, linkname string
	size           int64
}
