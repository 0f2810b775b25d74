// Swift Testing declares a cross-import overlay for CoreGraphics: a file
// that imports both Testing and CoreGraphics makes the compiler import
// `_Testing_CoreGraphics` as well. Apple's platforms ship that module (it
// makes CGImage attachable); Linux has no CoreGraphics, so its toolchain
// does not. This empty module, which StrataKit vends beside CoreGraphics,
// lets tests that import both build. It adds nothing.
