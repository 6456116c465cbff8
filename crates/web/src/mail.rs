//! E-mail by SMTP, when `--smtp-url` is set: the staff invitations the console makes
//! are sent to the member (the link is shown all the same: a server may have no mail).

use lettre::message::Mailbox;
use lettre::message::header::ContentType;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

/// How long one message may take to be handed to the SMTP server.
const SEND_WITHIN: std::time::Duration = std::time::Duration::from_secs(10);

/// The SMTP server and the sender.
#[derive(Clone)]
pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
}

impl std::fmt::Debug for Mailer {
    // The URL may hold the SMTP password: only the sender is shown.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mailer").field("from", &self.from).finish()
    }
}

impl Mailer {
    /// `url` as lettre reads it: `smtps://user:password@host` (TLS),
    /// `smtp://user:password@host:587?tls=required` (STARTTLS) or `smtp://host:25`
    /// (plain, for a relay on the same machine); `from` a mailbox
    /// (`rentrack <rentrack@example.com>`). The words of a refusal name the setting.
    pub fn new(url: &str, from: &str) -> Result<Mailer, String> {
        let _ = rustls::crypto::ring::default_provider().install_default();
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
            .map_err(|e| format!("--smtp-url is not an SMTP URL lettre reads: {e}"))?
            .timeout(Some(SEND_WITHIN))
            .build();
        let from = from
            .parse::<Mailbox>()
            .map_err(|e| format!("--smtp-from is not a mailbox ({e}): give `Name <address>`"))?;
        Ok(Mailer { transport, from })
    }

    /// Sends a plain-text message; the error says why it was not handed over.
    pub async fn send(&self, to: &str, subject: &str, body: String) -> Result<(), String> {
        let to = to
            .parse::<Mailbox>()
            .map_err(|e| format!("{to} is not an address mail can go to ({e})"))?;
        let message = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(subject)
            .header(ContentType::TEXT_PLAIN)
            .body(body)
            .map_err(|e| e.to_string())?;
        match tokio::time::timeout(SEND_WITHIN, self.transport.send(message)).await {
            Ok(Ok(_)) => Ok(()),
            Ok(Err(e)) => Err(e.to_string()),
            Err(_) => Err(format!(
                "the SMTP server did not answer within {} s",
                SEND_WITHIN.as_secs()
            )),
        }
    }
}
