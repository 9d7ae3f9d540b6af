// Intentionally empty: SwiftPM needs one source file to build the CMediaPipe C target, whose only
// content is the header in include/. The library itself is loaded with dlopen at run time.
