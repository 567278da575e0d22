//! The one error type: every applet returns `Result<(), Error>`, and `main` is the one place
//! that prints it and turns it into an exit status (0 success, 1 failure, 2 bad input). Writing
//! to the console, which waits on `sys`'s descriptors, is `base::error`'s, beside this.

use std::fmt;

/// Why an applet or the driver stopped.
#[derive(Debug)]
pub enum Error {
    /// Bad input on the command line: one line naming the argument and what is allowed. Exit 2.
    Usage(String),
    /// A fault while running (a failed fork, a full disk, a wrong self-check). Exit 1 unless
    /// `code` says otherwise.
    Failed { code: i32, msg: String },
    /// Leave with this status, printing nothing more (the message was already printed, or the
    /// C program's exit status is being reproduced).
    Exit(i32),
}

impl Error {
    /// A usage error (exit 2).
    pub fn usage(msg: impl Into<String>) -> Error {
        Error::Usage(msg.into())
    }
    /// A run-time failure (exit 1).
    pub fn failed(msg: impl Into<String>) -> Error {
        Error::Failed { code: 1, msg: msg.into() }
    }
    /// A run-time failure with a given exit status.
    pub fn failed_with(code: i32, msg: impl Into<String>) -> Error {
        Error::Failed { code, msg: msg.into() }
    }
    /// The process exit status this error maps to.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Usage(_) => 2,
            Error::Failed { code, .. } => *code,
            Error::Exit(code) => *code,
        }
    }
    /// The message to print, if any.
    pub fn message(&self) -> Option<&str> {
        match self {
            Error::Usage(m) | Error::Failed { msg: m, .. } => Some(m),
            Error::Exit(_) => None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message().unwrap_or(""))
    }
}

impl From<lexopt::Error> for Error {
    fn from(e: lexopt::Error) -> Error {
        Error::Usage(e.to_string())
    }
}

/// The text C's `perror` prints for an OS error: std's message without its " (os error N)" tail.
pub fn reason(e: &std::io::Error) -> String {
    let s = e.to_string();
    match s.rfind(" (os error ") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

/// Shorthand for applet results.
pub type Result<T = ()> = std::result::Result<T, Error>;
