// Package openai is the llm.Provider for OpenAI-compatible Chat Completions
// endpoints (OpenAI, Azure OpenAI, Ollama, vLLM, llama.cpp server, LM Studio,
// OpenRouter), built on github.com/sashabaranov/go-openai.
//
// It is the wire mapping only: it streams answers with tool calls, merging
// the streamed tool-call deltas itself (the library does not), maps
// go-openai's errors into the provider kit's (agent/llm/kit, which retries,
// backs off and watches the stream), falls back to a non-streaming request
// when asked to or when a server answers a streaming request with a plain
// JSON body, and assembles request bodies from pieces encoded once
// (encode.go).
package openai
