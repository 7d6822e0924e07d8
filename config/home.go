package config

import (
	"os/user"
	"path/filepath"
	"slices"
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

// AgentDirs are agentls's own folders as the environment getenv names them:
// the state folder (StateDir) and the user's config folders (UserDirs),
// absolute, without blanks or repeats. Every tool is kept out of them (the
// guard) and every command agentls starts (the sandbox denies reading and
// writing them); the --config file comes on top where one is given.
func AgentDirs(getenv func(string) string) []string {
	var out []string
	for _, d := range append([]string{StateDir(getenv)}, UserDirs(getenv)...) {
		if d != "" && !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}
