//go:build !amd64

package sandbox

// nativeChmod: the generic table has no chmod(2) (fchmodat only).
var nativeChmod = map[uint32]procCall{}
