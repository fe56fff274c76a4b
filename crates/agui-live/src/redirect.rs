//! Redirects as HTTP says (RFC 9110 §15.4): a 307 or 308 is repeated with
//! the same method and body, so the POST of the `RunAgentInput` goes on to
//! the new URL (what Starlette answers for a missing trailing slash); a
//! 301, 302 or 303 is not followed, since a client following one sends a
//! GET without the input — its response is judged as the status it is
//! (`transport.status`), with its `Location` named. Hops are bounded and a
//! loop is named; every hop is kept for the report.

/// The most 307/308 hops followed for one request.
pub const MAX_HOPS: usize = 10;

/// What to do with one response head.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Next {
    /// Send the same request to this URL.
    Follow(String),
    /// Hand this response on; with a note for a redirect not followed.
    Stop(Option<String>),
}

/// One 307/308 hop followed: the URL asked, the status it answered, its
/// `Location` as sent and the URL that resolves to (asked next).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hop {
    pub status: u16,
    pub url: String,
    pub location: String,
    pub to: String,
}

impl Hop {
    /// The hop as the JSON report lists it under `redirects`.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "status": self.status,
            "url": self.url,
            "location": self.location,
            "to": self.to,
        })
    }
}

/// `307 URL → URL`.
impl std::fmt::Display for Hop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {} → {}", self.status, self.url, self.to)
    }
}

/// The redirects of one request so far: the URLs asked, in order.
#[derive(Debug, Clone, Default)]
pub struct Hops {
    asked: Vec<String>,
    /// Each hop followed, in order.
    pub followed: Vec<Hop>,
}

impl Hops {
    /// Starts at `url`.
    pub fn new(url: &str) -> Self {
        Hops {
            asked: vec![url.to_owned()],
            followed: Vec::new(),
        }
    }

    fn current(&self) -> &str {
        self.asked.last().map_or("", String::as_str)
    }

    /// Decides on a response of `status` with `location` to the URL asked
    /// last.
    pub fn next(&mut self, status: u16, location: Option<&str>) -> Next {
        if !(300..400).contains(&status) {
            return Next::Stop(None);
        }
        let Some(location) = location else {
            return Next::Stop(Some(format!("HTTP {status} with no Location")));
        };
        let Some(to) = resolve(self.current(), location) else {
            return Next::Stop(Some(format!(
                "Location `{location}` is not a URL; not followed"
            )));
        };
        if !matches!(status, 307 | 308) {
            return Next::Stop(Some(format!(
                "Location: {to}; not followed: a client follows a {status} with a GET, \
                 which drops the RunAgentInput (307 or 308 keeps the POST)"
            )));
        }
        if self.asked.contains(&to) {
            let mut chain = self.asked.join(" → ");
            chain.push_str(&format!(" → {to}"));
            return Next::Stop(Some(format!("redirect loop: {chain}; not followed")));
        }
        if self.followed.len() >= MAX_HOPS {
            return Next::Stop(Some(format!(
                "Location: {to}; not followed: more than {MAX_HOPS} redirects"
            )));
        }
        self.followed.push(Hop {
            status,
            url: self.current().to_owned(),
            location: location.to_owned(),
            to: to.clone(),
        });
        self.asked.push(to.clone());
        Next::Follow(to)
    }
}

/// `location` resolved against `base` (RFC 3986 §5.2, the cases a server
/// sends: an absolute URL, `//host/path`, `/path`, a relative path, a
/// query), fragment dropped. `None` when `base` has no scheme and host.
pub fn resolve(base: &str, location: &str) -> Option<String> {
    let location = location.trim();
    let location = location.split('#').next().unwrap_or("");
    let (scheme, rest) = base.split_once("://")?;
    if location.contains("://") {
        return Some(location.to_owned());
    }
    if let Some(net) = location.strip_prefix("//") {
        return Some(format!("{scheme}://{net}"));
    }
    let slash = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, path) = rest.split_at(slash);
    let path = path.split(['?', '#']).next().unwrap_or("");
    let origin = format!("{scheme}://{authority}");
    if location.starts_with('/') {
        return Some(format!("{origin}{location}"));
    }
    if location.is_empty() {
        return Some(format!("{origin}{path}"));
    }
    if location.starts_with('?') {
        return Some(format!("{origin}{path}{location}"));
    }
    let dir = match path.rfind('/') {
        Some(i) => &path[..=i],
        None => "/",
    };
    Some(format!("{origin}{dir}{location}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_resolve_against_the_url_asked() {
        let base = "http://h:8/agent/run?x=1";
        assert_eq!(
            resolve(base, "/agent/run/").unwrap(),
            "http://h:8/agent/run/"
        );
        assert_eq!(resolve(base, "other").unwrap(), "http://h:8/agent/other");
        assert_eq!(resolve(base, "?y=2").unwrap(), "http://h:8/agent/run?y=2");
        assert_eq!(resolve(base, "//g/p").unwrap(), "http://g/p");
        assert_eq!(resolve(base, "https://g/p#f").unwrap(), "https://g/p");
        assert_eq!(resolve("http://h", "a").unwrap(), "http://h/a");
    }

    #[test]
    fn a_307_or_308_is_followed_and_named() {
        let mut h = Hops::new("http://h/agent");
        assert_eq!(
            h.next(307, Some("/agent/")),
            Next::Follow("http://h/agent/".into())
        );
        assert_eq!(
            h.next(308, Some("http://g/run")),
            Next::Follow("http://g/run".into())
        );
        assert_eq!(h.next(200, None), Next::Stop(None));
        let followed: Vec<String> = h.followed.iter().map(Hop::to_string).collect();
        assert_eq!(
            followed,
            [
                "307 http://h/agent → http://h/agent/",
                "308 http://h/agent/ → http://g/run"
            ]
        );
        assert_eq!(h.followed[0].location, "/agent/");
        assert_eq!(h.followed[1].location, "http://g/run");
    }

    #[test]
    fn a_301_302_or_303_is_not_followed_and_its_location_is_named() {
        for status in [301, 302, 303] {
            let mut h = Hops::new("http://h/agent");
            match h.next(status, Some("/elsewhere")) {
                Next::Stop(Some(note)) => {
                    assert!(note.contains("Location: http://h/elsewhere"), "{note}");
                    assert!(note.contains("GET"), "{note}");
                }
                other => panic!("{status}: {other:?}"),
            }
            assert!(h.followed.is_empty());
        }
    }

    #[test]
    fn loops_and_long_chains_stop_and_are_named() {
        let mut h = Hops::new("http://h/a");
        assert!(matches!(h.next(307, Some("/b")), Next::Follow(_)));
        match h.next(307, Some("/a")) {
            Next::Stop(Some(note)) => assert_eq!(
                note,
                "redirect loop: http://h/a → http://h/b → http://h/a; not followed"
            ),
            other => panic!("{other:?}"),
        }
        let mut h = Hops::new("http://h/0");
        for i in 1..=MAX_HOPS {
            assert!(matches!(
                h.next(308, Some(&format!("/{i}"))),
                Next::Follow(_)
            ));
        }
        assert!(
            matches!(h.next(308, Some("/x")), Next::Stop(Some(n)) if n.contains("more than 10"))
        );
    }
}
