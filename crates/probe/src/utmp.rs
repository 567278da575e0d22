//! Logged-in users and the runlevel, from utmp read as a file (musl has no utmp API).

/// What utmp says: logged-in users and the current runlevel.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Utmp {
    pub users: usize,
    pub runlevel: Option<char>,
}

/// The size of a glibc `struct utmp` on Linux (x86_64, aarch64, i386, arm and the other
/// architectures that keep 32-bit times in it). Its first fields, the only ones read here:
/// `ut_type` (i16) at 0, `ut_pid` (i32) at 4, `ut_user` (32 bytes) at 44.
pub const UTMP_RECORD: usize = 384;
pub(crate) const RUN_LVL: i16 = 1;
pub(crate) const USER_PROCESS: i16 = 7;

/// Parses a utmp file: USER_PROCESS records with a user name are users (as `who | wc -l` and
/// `uptime` count them); the last RUN_LVL record's pid holds the runlevel in its low byte (what
/// `runlevel` and `who -r` print). A file that is not a whole number of records is not trusted.
pub fn parse_utmp(bytes: &[u8]) -> Utmp {
    let mut u = Utmp::default();
    if bytes.len() % UTMP_RECORD != 0 {
        return u;
    }
    for r in bytes.chunks_exact(UTMP_RECORD) {
        let ty = i16::from_ne_bytes([r[0], r[1]]);
        let pid = i32::from_ne_bytes([r[4], r[5], r[6], r[7]]);
        if ty == USER_PROCESS && r[44] != 0 {
            u.users += 1;
        } else if ty == RUN_LVL {
            let c = (pid & 0xff) as u8;
            u.runlevel = c.is_ascii_graphic().then_some(c as char);
        }
    }
    u
}
#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn record(ty: i16, pid: i32, user: &str) -> Vec<u8> {
        let mut r = vec![0u8; UTMP_RECORD];
        r[0..2].copy_from_slice(&ty.to_ne_bytes());
        r[4..8].copy_from_slice(&pid.to_ne_bytes());
        r[44..44 + user.len()].copy_from_slice(user.as_bytes());
        r
    }

    #[test]
    fn utmp_records() {
        let mut b = record(2, 0, "reboot"); // BOOT_TIME
        b.extend(record(RUN_LVL, i32::from(b'N') << 8 | i32::from(b'5'), "runlevel"));
        b.extend(record(USER_PROCESS, 1234, "alice"));
        b.extend(record(USER_PROCESS, 1235, "bob"));
        b.extend(record(USER_PROCESS, 1236, "")); // no user: not counted
        b.extend(record(8, 1237, "carol")); // DEAD_PROCESS
        b.extend(record(6, 1238, "LOGIN")); // LOGIN_PROCESS
        assert_eq!(parse_utmp(&b), Utmp { users: 2, runlevel: Some('5') });
        assert_eq!(parse_utmp(&[]), Utmp::default());
        // A torn or foreign file is ignored rather than misread.
        assert_eq!(parse_utmp(&b[..500]), Utmp::default());
    }
}
