// Swift Testing declares a cross-import overlay for UIKit: a file that
// imports both Testing and UIKit makes the compiler import `_Testing_UIKit`
// as well. Apple's platforms ship that module (it makes UIImage
// attachable); Linux's toolchain has none. This empty module, which
// StrataKit vends beside UIKit, lets tests that import both build. It adds
// nothing.
