//go:build !unix

package workspace

import (
	"io"
	"os"
)

// readInto reads the file at abs into *buf (grown as needed and kept for the
// next call) and returns the bytes read.
func readInto(abs string, buf *[]byte) ([]byte, error) {
	f, err := os.Open(abs)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := 0
	if fi, err := f.Stat(); err == nil && fi.Size() < 1<<40 {
		size = int(fi.Size())
	}
	b := growBuf(buf, size)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			*buf = b[:0]
			return b, nil
		}
		if err != nil {
			return nil, err
		}
	}
}
