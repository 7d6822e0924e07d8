package canon

import (
	"io/fs"
	"os"
)

// The file system as Path sees it; variables so that a test can count
// the calls.
var (
	osLstat    = os.Lstat
	osReadlink = os.Readlink
	osStat     = os.Stat
)

// Batch canonicalises several paths as one computation (the paths of one
// guard check): each Path gives exactly what the package's Path gives,
// but a place the batch has already looked at is not looked at again — a
// prefix the paths share (`/home`, `/home/user`, the workspace folder) is
// `lstat`ed once for all of them, and a symlink read once. What it
// remembers is true only of the instant it looked: a batch belongs to one
// check on one goroutine and is dropped when the check ends; it is never
// kept across checks or calls (a symlink swapped in between would be
// judged by its old form). The zero value is not usable: use NewBatch.
type Batch struct {
	looks map[string]*look
}

// look is what a batch learnt of one absolute path; each field is filled
// at its first use.
type look struct {
	lstatDone bool
	mode      fs.FileMode // the type bits of the lstat
	lstatErr  error

	linkDone bool
	target   string
	linkErr  error

	statDone bool
	statErr  error
}

// NewBatch returns an empty batch.
func NewBatch() *Batch { return &Batch{looks: map[string]*look{}} }

// Path is the package's Path, sharing what this batch has looked at.
func (b *Batch) Path(p string) (string, error) { return walk(p, b) }

// at is the record of the path at, made on first use.
func (b *Batch) at(at string) *look {
	l := b.looks[at]
	if l == nil {
		l = &look{}
		b.looks[at] = l
	}
	return l
}

// lstat is os.Lstat's type bits and error, once per path in a batch (a nil
// batch looks every time).
func (b *Batch) lstat(at string) (fs.FileMode, error) {
	if b == nil {
		fi, err := osLstat(at)
		if err != nil {
			return 0, err
		}
		return fi.Mode().Type(), nil
	}
	l := b.at(at)
	if !l.lstatDone {
		l.lstatDone = true
		fi, err := osLstat(at)
		if err != nil {
			l.lstatErr = err
		} else {
			l.mode = fi.Mode().Type()
		}
	}
	return l.mode, l.lstatErr
}

// readlink is os.Readlink, once per path in a batch.
func (b *Batch) readlink(at string) (string, error) {
	if b == nil {
		return osReadlink(at)
	}
	l := b.at(at)
	if !l.linkDone {
		l.linkDone = true
		l.target, l.linkErr = osReadlink(at)
	}
	return l.target, l.linkErr
}

// stat is os.Stat's error, once per path in a batch.
func (b *Batch) stat(at string) error {
	if b == nil {
		_, err := osStat(at)
		return err
	}
	l := b.at(at)
	if !l.statDone {
		l.statDone = true
		_, l.statErr = osStat(at)
	}
	return l.statErr
}
