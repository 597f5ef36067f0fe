// Package private holds the one policy for the state hookshim trusts
// across calls (trust records, duplicate claims): it must be this user's
// alone. A directory or record that another user owns, or could write to,
// is refused rather than read, since what it says could be theirs.
package private
