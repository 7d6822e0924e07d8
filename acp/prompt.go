package acp

import (
	"fmt"
	"net/url"
	"strings"

	sdk "github.com/coder/acp-go-sdk"
)

// maxEmbeddedBytes caps the text of one embedded resource put in a prompt.
const maxEmbeddedBytes = 256 << 10

// promptText turns a prompt's content blocks into the user's message: text
// as it is, resource links to workspace files as mentions the model can
// read, embedded resources as quoted context; resource links of another
// scheme are returned apart (MCP resources, read by the agent). A resource
// link is never read here, and one outside the workspace is named as such
// (the model's tools cannot read it either). A prompt shaped as avante.nvim's
// replay of earlier messages is read as its newest message. typed is the
// text blocks alone: the user's words, the only text whose @server:uri
// mentions are read (an attached file's content names none).
func (h *hosted) promptText(blocks []sdk.ContentBlock) (msg, typed string, resources []string, err error) {
	var text, ctx []string
	blocks = unwrapReplayedPrompt(blocks) // replayed_prompt.go: avante.nvim's replays
	for i, b := range blocks {
		switch {
		case b.Text != nil:
			text = append(text, b.Text.Text)
		case b.ResourceLink != nil && isMCPResource(b.ResourceLink.Uri):
			resources = append(resources, b.ResourceLink.Uri)
		case b.ResourceLink != nil:
			ctx = append(ctx, h.linkNote(b.ResourceLink.Uri))
		case b.Resource != nil:
			ctx = append(ctx, h.embeddedNote(b.Resource.Resource))
		case b.Image != nil:
			return "", "", nil, invalidParams("prompt[%d]: agentls does not take images (promptCapabilities.image is false); describe the image in text", i)
		case b.Audio != nil:
			return "", "", nil, invalidParams("prompt[%d]: agentls does not take audio (promptCapabilities.audio is false)", i)
		default:
			return "", "", nil, invalidParams("prompt[%d]: unknown content block", i)
		}
	}
	typed = strings.TrimSpace(strings.Join(text, "\n"))
	msg = typed
	if len(ctx) > 0 {
		msg = strings.TrimSpace(msg + "\n\n" + strings.Join(ctx, "\n\n"))
	}
	if msg == "" && len(resources) == 0 {
		return "", "", nil, invalidParams("the prompt is empty: send at least one text block")
	}
	if msg == "" {
		msg = "(The user attached the MCP resources below.)"
	}
	return msg, typed, resources, nil
}

// isMCPResource reports whether a resource link names no file (a scheme
// other than file:, like an MCP server's demo://… or github://…): the
// agent reads it from the session's MCP servers.
func isMCPResource(uri string) bool {
	u, err := url.Parse(uri)
	return err == nil && u.Scheme != "" && u.Scheme != "file" && len(u.Scheme) > 1 // not a Windows drive letter
}

// linkNote names a linked file for the model: a workspace path it can read
// with the read tool, or a link agentls will not follow.
func (h *hosted) linkNote(uri string) string {
	p, err := h.ws.Resolve(uri)
	if err != nil {
		return fmt.Sprintf("(The user linked %s, which is outside the workspace: agentls cannot read it.)", oneLine(uri))
	}
	if p.IsDir {
		return fmt.Sprintf("The user attached the folder %s (list it with ls).", p.Rel)
	}
	return fmt.Sprintf("The user attached %s (read it with the read tool).", p.Rel)
}

// embeddedNote quotes an embedded resource the client sent with the prompt.
func (h *hosted) embeddedNote(r sdk.EmbeddedResourceResource) string {
	switch {
	case r.TextResourceContents != nil:
		c := r.TextResourceContents
		name := oneLine(c.Uri)
		if p, err := h.ws.Resolve(c.Uri); err == nil {
			name = p.Rel
		}
		body := c.Text
		cut := ""
		if len(body) > maxEmbeddedBytes {
			body, cut = body[:maxEmbeddedBytes], fmt.Sprintf("\n(cut at %d KB)", maxEmbeddedBytes>>10)
		}
		return fmt.Sprintf("Context from %s, as the user's editor has it:\n```\n%s\n```%s", name, body, cut)
	case r.BlobResourceContents != nil:
		return fmt.Sprintf("(The user attached %s, a binary resource agentls cannot read.)", oneLine(r.BlobResourceContents.Uri))
	}
	return "(The user attached an empty resource.)"
}

// oneLine keeps a client-given name on one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
