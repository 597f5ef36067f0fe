// Package private holds the one policy for the state hookshim trusts
// across calls (trust records, duplicate claims): it must be this user's
// alone. A directory or record that another user owns, or could write to,
// is refused rather than read, since what it says could be theirs.
//
// It also holds the one writer of files, atomic and durable: WriteFile
// for that state (a link at its path replaced, never followed; the mode
// hookshim's), WriteThrough for the files of the user's that hookshim
// edits (through symbolic links; the file's own mode kept).
package private
