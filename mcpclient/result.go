package mcpclient

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// CallResult is a tool call's result as the model reads it.
type CallResult struct {
	// Text is the result's content rendered as text, cut to the cap.
	Text string `json:"text"`
	// IsError is the server's own "the tool failed".
	IsError bool `json:"isError,omitempty"`
	// Truncated: Text was cut; Bytes is the size before the cut.
	Truncated bool `json:"truncated,omitempty"`
	Bytes     int  `json:"bytes"`
}

// render turns a result into text: text content as is, other content as a
// one-line note (images and audio are not passed on), structured content
// as JSON when there is no text; at most maxBytes, cut at a character.
func render(res *mcp.CallToolResult, maxBytes int) CallResult {
	var b strings.Builder
	for i, c := range res.Content {
		if i > 0 {
			b.WriteString("\n")
		}
		switch c := c.(type) {
		case *mcp.TextContent:
			b.WriteString(c.Text)
		case *mcp.ImageContent:
			fmt.Fprintf(&b, "[image %s, %d bytes, not shown]", c.MIMEType, len(c.Data))
		case *mcp.AudioContent:
			fmt.Fprintf(&b, "[audio %s, %d bytes, not shown]", c.MIMEType, len(c.Data))
		case *mcp.ResourceLink:
			fmt.Fprintf(&b, "[resource %s %s]", c.Name, c.URI)
		case *mcp.EmbeddedResource:
			if c.Resource != nil && c.Resource.Text != "" {
				b.WriteString(c.Resource.Text)
			} else if c.Resource != nil {
				fmt.Fprintf(&b, "[resource %s, %d bytes, not shown]", c.Resource.URI, len(c.Resource.Blob))
			}
		default:
			fmt.Fprintf(&b, "[%T content, not shown]", c)
		}
	}
	if b.Len() == 0 && res.StructuredContent != nil {
		if j, err := json.Marshal(res.StructuredContent); err == nil {
			b.Write(j)
		}
	}
	text := b.String()
	out := CallResult{IsError: res.IsError, Bytes: len(text)}
	out.Text, out.Truncated = capText(text, maxBytes)
	return out
}

// capText cuts s to at most max bytes at a character boundary, with a note
// saying how much was left out.
func capText(s string, max int) (string, bool) {
	if max <= 0 || len(s) <= max {
		return strings.ToValidUTF8(s, "\uFFFD"), false
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strings.ToValidUTF8(s[:cut], "\uFFFD") + fmt.Sprintf("\n…[cut: %d more bytes of %d; the result is capped at run.max_output_bytes]", len(s)-cut, len(s)), true
}
