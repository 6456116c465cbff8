//! What one client may hold of the server: at most `max` connections at once (more are
//! closed as soon as they are accepted, before any TLS handshake), and a connection
//! on which no byte moves either way for the idle timeout is closed (an idle HTTP/2
//! connection, a client that stops reading its response, a stalled body). The
//! header-read timeout of HTTP/1.1 is hyper's own (see `serve`).

use axum_server::accept::Accept;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::{Instant, Sleep};

/// Wraps another acceptor (plain or TLS) with the connection limit and idle timeout.
#[derive(Clone)]
pub struct Guarded<A> {
    inner: A,
    permits: Arc<Semaphore>,
    idle: Duration,
}

impl<A> Guarded<A> {
    pub fn new(inner: A, max_connections: usize, idle: Duration) -> Self {
        Guarded {
            inner,
            permits: Arc::new(Semaphore::new(max_connections)),
            idle,
        }
    }
}

impl<A, I, S> Accept<I, S> for Guarded<A>
where
    A: Accept<GuardedStream<I>, S> + Clone + Send + 'static,
    A::Future: Send,
    I: Send + 'static,
    S: Send + 'static,
{
    type Stream = A::Stream;
    type Service = A::Service;
    type Future = Pin<Box<dyn Future<Output = io::Result<(Self::Stream, Self::Service)>> + Send>>;

    fn accept(&self, stream: I, service: S) -> Self::Future {
        let permit = self.permits.clone().try_acquire_owned();
        let inner = self.inner.clone();
        let idle = self.idle;
        Box::pin(async move {
            let Ok(permit) = permit else {
                // Dropping the stream closes it: the client may retry later.
                tracing::warn!("connection refused: the connection limit is reached");
                return Err(io::Error::other("connection limit reached"));
            };
            inner
                .accept(GuardedStream::new(stream, permit, idle), service)
                .await
        })
    }
}

/// A connection holding its place under the limit, closed when idle too long.
pub struct GuardedStream<I> {
    inner: I,
    _permit: OwnedSemaphorePermit,
    idle: Duration,
    deadline: Pin<Box<Sleep>>,
}

impl<I> GuardedStream<I> {
    fn new(inner: I, permit: OwnedSemaphorePermit, idle: Duration) -> Self {
        GuardedStream {
            inner,
            _permit: permit,
            idle,
            deadline: Box::pin(tokio::time::sleep(idle)),
        }
    }

    fn moved(&mut self) {
        self.deadline.as_mut().reset(Instant::now() + self.idle);
    }

    /// After the inner stream said Pending: an error once the connection has been idle
    /// for the whole timeout.
    fn idle_out<T>(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<T>> {
        match self.deadline.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "connection idle too long",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl<I: AsyncRead + Unpin> AsyncRead for GuardedStream<I> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        match Pin::new(&mut self.inner).poll_read(cx, buf) {
            Poll::Ready(result) => {
                if buf.filled().len() > before {
                    self.moved();
                }
                Poll::Ready(result)
            }
            Poll::Pending => self.idle_out(cx),
        }
    }
}

impl<I: AsyncWrite + Unpin> AsyncWrite for GuardedStream<I> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        match Pin::new(&mut self.inner).poll_write(cx, buf) {
            Poll::Ready(result) => {
                if matches!(result, Ok(n) if n > 0) {
                    self.moved();
                }
                Poll::Ready(result)
            }
            Poll::Pending => self.idle_out(cx),
        }
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        match Pin::new(&mut self.inner).poll_write_vectored(cx, bufs) {
            Poll::Ready(result) => {
                if matches!(result, Ok(n) if n > 0) {
                    self.moved();
                }
                Poll::Ready(result)
            }
            Poll::Pending => self.idle_out(cx),
        }
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match Pin::new(&mut self.inner).poll_flush(cx) {
            Poll::Ready(result) => Poll::Ready(result),
            Poll::Pending => self.idle_out(cx),
        }
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}
