//go:build !amd64

package sandbox

// nativeChmod: the generic table has no chmod(2), chown(2) or lchown(2) (the *at calls only).
var nativeChmod = map[uint32]procCall{}
