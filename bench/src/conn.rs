//! One keep-alive HTTP/1.1 connection per worker (hyper `conn::http1`), so the
//! number of workers is exactly the number of concurrent connections.

use std::sync::Arc;

use anyhow::{Context, Result, bail};
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::client::conn::http1::{self, SendRequest};
use hyper::header::{ACCEPT, CONTENT_TYPE, HOST, HeaderValue, USER_AGENT};
use hyper::{Method, Request, Uri};
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;

/// Where to send requests and how to authenticate.
#[derive(Debug)]
pub struct Target {
    host: String,
    port: u16,
    host_header: HeaderValue,
    /// Path prefix of the base URL without trailing slash ("" for the root).
    prefix: String,
    token: HeaderValue,
}

impl Target {
    /// Accepts `http://host[:port][/prefix]`; TLS is not supported (benchmark the
    /// server directly, not through a proxy).
    pub fn new(base_url: &str, token: &str) -> Result<Self> {
        let uri: Uri = base_url
            .trim()
            .parse()
            .with_context(|| format!("invalid --base-url {base_url:?}"))?;
        match uri.scheme_str() {
            Some("http") => {}
            Some(other) => bail!("--base-url scheme {other:?} is not supported; use http://"),
            None => bail!("--base-url needs a scheme, e.g. http://127.0.0.1:3000"),
        }
        let authority = uri.authority().context("--base-url has no host")?.clone();
        let host = authority
            .host()
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_owned();
        let port = authority.port_u16().unwrap_or(80);
        let prefix = uri.path().trim_end_matches('/').to_owned();
        Ok(Target {
            host,
            port,
            host_header: HeaderValue::from_str(authority.as_str())?,
            prefix,
            token: HeaderValue::from_str(token.trim())
                .context("token is not a valid header value")?,
        })
    }

    /// Origin-form URI for `path_and_query` (which starts with `/`).
    pub fn uri(&self, path_and_query: &str) -> Result<Uri> {
        let full = format!("{}{}", self.prefix, path_and_query);
        full.parse()
            .with_context(|| format!("invalid request path {full:?}"))
    }

    pub fn get(&self, uri: Uri) -> Request<Full<Bytes>> {
        self.request(Method::GET, uri, None)
    }

    /// A request of `method` with an already encoded form body, or none.
    pub fn with_form(&self, method: Method, uri: Uri, form: Option<Bytes>) -> Request<Full<Bytes>> {
        self.request(method, uri, form)
    }

    pub fn put(&self, uri: Uri) -> Request<Full<Bytes>> {
        self.request(Method::PUT, uri, None)
    }

    /// POST with an `application/x-www-form-urlencoded` body.
    pub fn post_form(&self, uri: Uri, pairs: &[(&str, &str)]) -> Request<Full<Bytes>> {
        self.request(Method::POST, uri, Some(encode(pairs).into()))
    }

    fn request(&self, method: Method, uri: Uri, form: Option<Bytes>) -> Request<Full<Bytes>> {
        let has_form = form.is_some();
        let mut req = Request::new(Full::new(form.unwrap_or_default()));
        *req.method_mut() = method;
        *req.uri_mut() = uri;
        let h = req.headers_mut();
        h.insert(HOST, self.host_header.clone());
        h.insert("token", self.token.clone());
        h.insert(ACCEPT, HeaderValue::from_static("application/json"));
        h.insert(USER_AGENT, HeaderValue::from_static("rentrack-bench"));
        if has_form {
            h.insert(
                CONTENT_TYPE,
                HeaderValue::from_static("application/x-www-form-urlencoded"),
            );
        }
        req
    }
}

/// `pairs` as an `application/x-www-form-urlencoded` body.
pub fn encode<K: AsRef<str>, V: AsRef<str>>(pairs: &[(K, V)]) -> String {
    let mut ser = form_urlencoded::Serializer::new(String::new());
    for (k, v) in pairs {
        ser.append_pair(k.as_ref(), v.as_ref());
    }
    ser.finish()
}

/// A fully read response.
pub struct Reply {
    pub status: u16,
    pub headers: hyper::HeaderMap,
    pub body: Bytes,
}

impl Reply {
    pub fn is_success(&self) -> bool {
        (200..300).contains(&self.status)
    }

    /// Parses the body as JSON.
    pub fn json(&self) -> Result<serde_json::Value> {
        serde_json::from_slice(&self.body).context("response body is not JSON")
    }

    /// The first 200 characters of the body, for error messages.
    pub fn snippet(&self) -> String {
        let text = String::from_utf8_lossy(&self.body);
        let mut s: String = text.chars().take(200).collect();
        if text.chars().count() > 200 {
            s.push('…');
        }
        s
    }
}

/// A lazily (re)opened keep-alive connection.
pub struct Conn {
    target: Arc<Target>,
    sender: Option<SendRequest<Full<Bytes>>>,
    /// Connections opened so far (the first one included).
    pub opened: u64,
}

impl Conn {
    pub fn new(target: Arc<Target>) -> Self {
        Conn {
            target,
            sender: None,
            opened: 0,
        }
    }

    pub fn target(&self) -> &Target {
        &self.target
    }

    /// Makes sure there is a connection ready to take a request, opening a new
    /// one if the server closed the previous one. Not part of measured latency.
    pub async fn ready(&mut self) -> Result<()> {
        if let Some(sender) = &mut self.sender {
            if sender.ready().await.is_ok() {
                return Ok(());
            }
            self.sender = None;
        }
        let t = &self.target;
        let stream = TcpStream::connect((t.host.as_str(), t.port))
            .await
            .with_context(|| format!("connecting to {}:{}", t.host, t.port))?;
        stream.set_nodelay(true)?;
        let (sender, connection) = http1::handshake(TokioIo::new(stream))
            .await
            .context("HTTP/1.1 handshake")?;
        tokio::spawn(async move {
            // Ends when the sender is dropped or the server closes the socket.
            let _ = connection.await;
        });
        self.sender = Some(sender);
        self.opened += 1;
        Ok(())
    }

    /// Sends `req` on the ready connection and reads the whole body. Call
    /// [`Conn::ready`] first. On failure the connection is discarded.
    pub async fn send(&mut self, req: Request<Full<Bytes>>) -> Result<Reply> {
        let Some(sender) = &mut self.sender else {
            bail!("no connection (ready() not called or failed)");
        };
        let result = async {
            let resp = sender.send_request(req).await?;
            let status = resp.status().as_u16();
            let headers = resp.headers().clone();
            let body = resp.into_body().collect().await?.to_bytes();
            Ok::<_, hyper::Error>(Reply {
                status,
                headers,
                body,
            })
        }
        .await;
        result.map_err(|e| {
            self.sender = None;
            anyhow::Error::new(e).context("request failed")
        })
    }

    /// Drops the current connection (after a timeout its state is unknown).
    pub fn reset(&mut self) {
        self.sender = None;
    }

    /// `ready` + `send`, for one-off requests (seeding, discovery).
    pub async fn call(&mut self, req: Request<Full<Bytes>>) -> Result<Reply> {
        self.ready().await?;
        self.send(req).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_base_urls() {
        let t = Target::new("http://127.0.0.1:3000", "tok").unwrap();
        assert_eq!(
            (t.host.as_str(), t.port, t.prefix.as_str()),
            ("127.0.0.1", 3000, "")
        );
        assert_eq!(t.host_header, "127.0.0.1:3000");
        assert_eq!(t.uri("/healthz").unwrap(), "/healthz");

        let t = Target::new("http://example.test/", "tok").unwrap();
        assert_eq!((t.port, t.prefix.as_str()), (80, ""));

        let t = Target::new("http://[::1]:8080/rt/", "tok").unwrap();
        assert_eq!((t.host.as_str(), t.port), ("::1", 8080));
        assert_eq!(t.uri("/locations/3.api").unwrap(), "/rt/locations/3.api");
    }

    #[test]
    fn rejects_tls_and_bare_hosts() {
        assert!(Target::new("https://x.test", "t").is_err());
        assert!(Target::new("x.test:3000", "t").is_err());
    }

    #[test]
    fn form_requests_are_encoded() {
        let t = Target::new("http://h:1", "abc").unwrap();
        let req = t.post_form(
            t.uri("/locations.api").unwrap(),
            &[
                ("location[name]", "Bench & Co 1"),
                ("location[city]", "Zürich"),
            ],
        );
        assert_eq!(req.method(), Method::POST);
        assert_eq!(req.headers()["token"], "abc");
        assert_eq!(
            req.headers()[CONTENT_TYPE],
            "application/x-www-form-urlencoded"
        );
        assert_eq!(req.headers()[HOST], "h:1");
        let body = futures_body(req.into_body());
        assert_eq!(
            body,
            "location%5Bname%5D=Bench+%26+Co+1&location%5Bcity%5D=Z%C3%BCrich"
        );
    }

    fn futures_body(body: Full<Bytes>) -> String {
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let bytes = rt.block_on(body.collect()).unwrap().to_bytes();
        String::from_utf8(bytes.to_vec()).unwrap()
    }
}
