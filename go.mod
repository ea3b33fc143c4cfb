module github.com/tandemhq/tandem

go 1.26
