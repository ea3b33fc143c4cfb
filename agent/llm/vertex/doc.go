// Package vertex reaches models on Google Cloud's Vertex AI: Gemini
// through the gemini package's wire, and the Anthropic models Vertex
// serves through the anthropic package's (streamRawPredict). It adds what
// Vertex needs on top: the URL of a project, location and publisher, and
// an OAuth2 access token from Google's credentials
// (golang.org/x/oauth2/google: a credentials file, or the
// application-default credentials of gcloud or the metadata server).
//
// Every access token it gets is handed to Options.Learn before use, so the
// process's redactor masks it wherever it could appear. It must never log
// or return a token or a private key.
package vertex
