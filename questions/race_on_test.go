//go:build race

package questions

// timeScale stretches the time bounds of tests: the race detector makes
// validation many times slower.
const timeScale = 20
