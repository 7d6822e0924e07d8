// Package openai is the llm.Provider for OpenAI-compatible Chat Completions
// endpoints (OpenAI, Azure OpenAI, Ollama, vLLM, llama.cpp server, LM Studio,
// OpenRouter), built on github.com/sashabaranov/go-openai.
//
// It streams answers with tool calls, merging the streamed tool-call deltas
// itself (the library does not), retries rate limits, server errors and
// streams that drop before any output with exponential backoff, and falls back
// to a non-streaming request when asked to or when a server answers a
// streaming request with a plain JSON body.
package openai
