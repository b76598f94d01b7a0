//go:build !(js && wasm)

// Command wasm only does something when built with GOOS=js GOARCH=wasm.
// This stub lets `go build ./...` and `go vet ./...` pass natively without
// pulling the web UI into a server binary.
package main

func main() {}
