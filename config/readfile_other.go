//go:build !unix

package config

// openNonBlock adds nothing here.
const openNonBlock = 0
