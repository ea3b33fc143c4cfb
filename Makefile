# make          a development build: ./tandem
# make release  everything a release ships, into dist/ (internal/release):
#               VERSION=x.y.z (default: the vX.Y.Z tag at HEAD),
#               PLATFORMS=linux-x86_64,... (default all five)
VERSION ?=
PLATFORMS ?=

.PHONY: tandem release
tandem:
	go build -o tandem ./cmd/tandem

release:
	go run ./internal/release/mkrelease -out dist $(if $(VERSION),-version $(VERSION)) $(if $(PLATFORMS),-platforms $(PLATFORMS))
