// Package kit is the provider-neutral layer every chat-model provider is
// built on: the retry loop with exponential backoff and Retry-After, the
// stream watchdog (first-byte and idle timeouts), and the classification of
// failures (transient or not, context-window overflow) into one *Error.
//
// A provider keeps only its wire mapping: it turns llm.Request into its
// endpoint's request, the answer back into llm.Response, and its library's
// errors into an *Error (Classify handles the errors every HTTP provider
// shares). Policy.Run does the rest.
package kit
