package toml

import "strconv"

// Kind is which of TOML's four date and time types a DateTime holds.
type Kind uint8

const (
	OffsetDateTime Kind = iota + 1 // 1979-05-27T07:32:00-07:00
	LocalDateTime                  // 1979-05-27T07:32:00
	LocalDate                      // 1979-05-27
	LocalTime                      // 07:32:00
)

// DateTime is a TOML offset date-time, local date-time, local date or
// local time. The fields a Kind does not have are zero. Fractions of a
// second finer than a nanosecond are truncated, as the specification asks.
type DateTime struct {
	Kind                 Kind
	Year, Month, Day     int
	Hour, Minute, Second int
	Nanosecond           int
	Offset               int // minutes east of UTC, for an OffsetDateTime
}

// String writes d in RFC 3339 form: a local date-time without an offset,
// a local date or time alone, a zero offset as Z, and a fraction of a
// second without trailing zeros.
func (d DateTime) String() string {
	b := make([]byte, 0, 40)
	if d.Kind != LocalTime {
		b = pad(b, d.Year, 4)
		b = append(b, '-')
		b = pad(b, d.Month, 2)
		b = append(b, '-')
		b = pad(b, d.Day, 2)
		if d.Kind == LocalDate {
			return string(b)
		}
		b = append(b, 'T')
	}
	b = pad(b, d.Hour, 2)
	b = append(b, ':')
	b = pad(b, d.Minute, 2)
	b = append(b, ':')
	b = pad(b, d.Second, 2)
	if d.Nanosecond != 0 {
		b = append(b, '.')
		b = pad(b, d.Nanosecond, 9)
		for b[len(b)-1] == '0' {
			b = b[:len(b)-1]
		}
	}
	if d.Kind == OffsetDateTime {
		off := d.Offset
		switch {
		case off == 0:
			return string(append(b, 'Z'))
		case off < 0:
			b = append(b, '-')
			off = -off
		default:
			b = append(b, '+')
		}
		b = pad(b, off/60, 2)
		b = append(b, ':')
		b = pad(b, off%60, 2)
	}
	return string(b)
}

// MarshalJSON writes d as a JSON string holding String().
func (d DateTime) MarshalJSON() ([]byte, error) {
	return []byte(`"` + d.String() + `"`), nil
}

func pad(b []byte, v, width int) []byte {
	s := strconv.Itoa(v)
	for i := len(s); i < width; i++ {
		b = append(b, '0')
	}
	return append(b, s...)
}

// two reads the two digits at s[i:i+2], or -1.
func two(s string, i int) int {
	if !digitsAt(s, i, 2) {
		return -1
	}
	return int(s[i]-'0')*10 + int(s[i+1]-'0')
}

func (p *parser) expect(c byte, what string) {
	if p.peek() != c {
		p.fail(p.i, what+", found "+p.found())
	}
	p.i++
}

// date reads a local date, local date-time or offset date-time; the
// cursor is on four digits and a dash.
func (p *parser) date() DateTime {
	s := p.s
	d := DateTime{Kind: LocalDate}
	d.Year, _ = strconv.Atoi(s[p.i : p.i+4])
	p.i += 5
	at := p.i
	if d.Month = two(s, p.i); d.Month < 0 {
		p.fail(p.i, "invalid date: expected a two-digit month, found "+p.found())
	}
	p.i += 2
	p.expect('-', "invalid date: expected - after the month")
	if d.Day = two(s, p.i); d.Day < 0 {
		p.fail(p.i, "invalid date: expected a two-digit day, found "+p.found())
	}
	if d.Month < 1 || d.Month > 12 {
		p.fail(at, "invalid date: there is no month "+s[at:at+2])
	}
	if d.Day < 1 || d.Day > daysIn(d.Year, d.Month) {
		p.fail(p.i, "invalid date: "+s[at-5:p.i+2]+" does not exist")
	}
	p.i += 2
	// A space may stand for the T only where a time follows it.
	if c := p.peek(); c == 'T' || c == 't' || c == ' ' && two(s, p.i+1) >= 0 && p.i+3 < len(s) && s[p.i+3] == ':' {
		p.i++
		d.Kind = LocalDateTime
		p.timeOfDay(&d)
		switch p.peek() {
		case 'Z', 'z':
			p.i++
			d.Kind = OffsetDateTime
		case '+', '-':
			sign := 1
			if p.peek() == '-' {
				sign = -1
			}
			p.i++
			h := two(s, p.i)
			if h < 0 || h > 23 {
				p.fail(p.i, "invalid offset: expected an hour from 00 to 23")
			}
			p.i += 2
			p.expect(':', "invalid offset: expected : between hours and minutes")
			m := two(s, p.i)
			if m < 0 || m > 59 {
				p.fail(p.i, "invalid offset: expected minutes from 00 to 59")
			}
			p.i += 2
			d.Kind = OffsetDateTime
			d.Offset = sign * (h*60 + m)
		}
	}
	return d
}

func (p *parser) localTime() DateTime {
	d := DateTime{Kind: LocalTime}
	p.timeOfDay(&d)
	return d
}

// timeOfDay reads HH:MM, or HH:MM:SS with an optional fraction.
func (p *parser) timeOfDay(d *DateTime) {
	s := p.s
	if d.Hour = two(s, p.i); d.Hour < 0 || d.Hour > 23 {
		p.fail(p.i, "invalid time: expected an hour from 00 to 23")
	}
	p.i += 2
	p.expect(':', "invalid time: expected : after the hour")
	if d.Minute = two(s, p.i); d.Minute < 0 || d.Minute > 59 {
		p.fail(p.i, "invalid time: expected minutes from 00 to 59")
	}
	p.i += 2
	if p.peek() != ':' {
		return // seconds, and with them a fraction, may be left out
	}
	p.i++
	// 60 is a leap second (RFC 3339, section 5.6).
	if d.Second = two(s, p.i); d.Second < 0 || d.Second > 60 {
		p.fail(p.i, "invalid time: expected seconds from 00 to 60")
	}
	p.i += 2
	if p.peek() == '.' {
		p.i++
		if !digitsAt(s, p.i, 1) {
			p.fail(p.i, "invalid time: expected a digit after the decimal point")
		}
		digits := 0
		for ; p.i < len(s) && isDigit(s[p.i]); p.i++ {
			if digits < 9 {
				d.Nanosecond = d.Nanosecond*10 + int(s[p.i]-'0')
				digits++
			}
		}
		for ; digits < 9; digits++ {
			d.Nanosecond *= 10
		}
	}
}

func daysIn(year, month int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}
