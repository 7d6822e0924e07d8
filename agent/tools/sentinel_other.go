//go:build !unix

package tools

// noFollow is O_NOFOLLOW where there is one (Lstat came first anyway).
const noFollow = 0
