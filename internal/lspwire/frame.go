package lspwire

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// MaxHeaderBytes caps a frame's header block.
const MaxHeaderBytes = 64 << 10

// FrameError is a broken frame header (a missing or non-numeric
// Content-Length, a header line without a colon, an endless header): the
// stream cannot be resynchronised after it.
type FrameError struct{ Reason string }

func (e *FrameError) Error() string { return "broken message header: " + e.Reason }

// ReadFrameHeader reads one header block of the LSP base protocol and
// returns the body's length and the header's size. io.EOF is the peer
// closing the stream between messages.
func ReadFrameHeader(r *bufio.Reader) (length, consumed int, err error) {
	length = -1
	for {
		line, err := r.ReadSlice('\n')
		if err != nil {
			switch {
			case errors.Is(err, io.EOF) && consumed == 0 && len(line) == 0:
				return 0, 0, io.EOF
			case errors.Is(err, io.EOF):
				return 0, 0, io.ErrUnexpectedEOF
			case errors.Is(err, bufio.ErrBufferFull):
				return 0, 0, &FrameError{Reason: "a header line longer than 4 KiB"}
			}
			return 0, 0, err
		}
		consumed += len(line)
		if consumed > MaxHeaderBytes {
			return 0, 0, &FrameError{Reason: "a header block longer than 64 KiB"}
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 {
			break
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			return 0, 0, &FrameError{Reason: fmt.Sprintf("header line %q has no colon", truncate(string(line), 80))}
		}
		if !bytes.EqualFold(bytes.TrimSpace(name), []byte("Content-Length")) {
			continue // Content-Type and unknown fields
		}
		v := string(bytes.TrimSpace(value))
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			// Zero is in sync (an empty body, answered as invalid JSON);
			// a negative or non-numeric length is not.
			return 0, 0, &FrameError{Reason: fmt.Sprintf("Content-Length %q is not a number of bytes", truncate(v, 80))}
		}
		length = n
	}
	if length < 0 {
		return 0, 0, &FrameError{Reason: "no Content-Length"}
	}
	return length, consumed, nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
