// Package private holds the one policy for the state hookshim trusts
// across calls (trust records, duplicate claims): it must be this user's
// alone. A directory or record that another user owns, or could write to,
// is refused rather than read, since what it says could be theirs.
//
// It also holds the one writer of files (WriteFile), for that state and
// for the files of the user's that hookshim edits: atomic, durable, through
// symbolic links, keeping the file's mode.
package private
