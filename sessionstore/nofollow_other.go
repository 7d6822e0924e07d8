//go:build !unix

package sessionstore

// openNoFollow adds nothing here: openState checks the file with Lstat
// before opening it.
const openNoFollow = 0
