// Command greeter serves a tiny greeting API.
package main

import (
	"fmt"
	"log"
	"net/http"
)

// newMux wires the routes.
func newMux() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("/hello", hello)
	return mux
}

// hello greets the caller by name: /hello?name=Ada.
func hello(w http.ResponseWriter, r *http.Request) {
	name := r.URL.Query().Get("name")
	if name == "" {
		name = "world"
	}
	fmt.Fprintf(w, "hello, %s\n", name)
}

func main() {
	log.Fatal(http.ListenAndServe("127.0.0.1:8080", newMux()))
}
