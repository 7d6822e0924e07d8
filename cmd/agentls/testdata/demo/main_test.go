package main

import (
	"net/http/httptest"
	"testing"
)

func TestHello(t *testing.T) {
	rec := httptest.NewRecorder()
	newMux().ServeHTTP(rec, httptest.NewRequest("GET", "/hello?name=Ada", nil))
	if got := rec.Body.String(); got != "hello, Ada\n" {
		t.Fatalf("body = %q", got)
	}
}
