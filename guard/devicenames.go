package guard

import (
	"fmt"
	"strings"
)

// windowsDevices are the names Windows reserves for devices in every
// folder (Win32 path rules): `NUL.plan` or `plans/con/x.plan` opens the
// device, not a file, so a plan written there is lost (NUL) or sent to a
// console, printer or serial port.
var windowsDevices = map[string]bool{
	"CON": true, "PRN": true, "AUX": true, "NUL": true, "CONIN$": true, "CONOUT$": true,
	"COM0": true, "COM1": true, "COM2": true, "COM3": true, "COM4": true, "COM5": true, "COM6": true, "COM7": true, "COM8": true, "COM9": true,
	"COM¹": true, "COM²": true, "COM³": true,
	"LPT0": true, "LPT1": true, "LPT2": true, "LPT3": true, "LPT4": true, "LPT5": true, "LPT6": true, "LPT7": true, "LPT8": true, "LPT9": true,
	"LPT¹": true, "LPT²": true, "LPT³": true,
}

// deviceNameErr refuses a path with an element Windows takes for a device:
// the element up to its first dot, trailing spaces dropped as Windows drops
// them, in any letter case (`nul.plan`, `Con .plan`, `com1.draft.plan`).
// It applies on every system, so that a plan made on Linux does not become
// a device when the repository is checked out on Windows.
func deviceNameErr(p string) error {
	for _, elem := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' }) {
		stem, _, _ := strings.Cut(elem, ".")
		if windowsDevices[strings.ToUpper(strings.TrimRight(stem, " "))] {
			return fmt.Errorf("%q names the device %s on Windows, not a file; choose another name", elem, strings.TrimRight(stem, " "))
		}
	}
	return nil
}
