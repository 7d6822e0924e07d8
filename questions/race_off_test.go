//go:build !race

package questions

// timeScale stretches the time bounds of tests (see race_on_test.go).
const timeScale = 1
