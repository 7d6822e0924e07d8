package config

import (
	"os/user"
	"path/filepath"
)

// passwdHome is the home folder of the user running agentls, from the
// password database; a variable for tests.
var passwdHome = func() string {
	u, err := user.Current()
	if err != nil {
		return ""
	}
	return u.HomeDir
}

// Home is the user's home folder as agentls places its own folders: $HOME
// when it is an absolute path, else the home folder of the password
// database (a service started without HOME). "" only when neither is known.
// agentls's state and configuration folders hang below it, and the guard
// and the sandbox protect them: an unset HOME must not leave them unknown
// (and so unprotected).
func Home(getenv func(string) string) string {
	if h := getenv("HOME"); filepath.IsAbs(h) {
		return filepath.Clean(h)
	}
	if h := passwdHome(); filepath.IsAbs(h) {
		return filepath.Clean(h)
	}
	return ""
}
