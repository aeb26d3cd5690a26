//! Running a generator's pieces of work on all cores and handing their patterns over in
//! order, as they are found, with bounded memory.
//!
//! A *job* is a piece of one search (a start state, or the patterns under one way of
//! throwing its first beats); jobs come from a lazy iterator in output order. Worker threads
//! take jobs in that order, at most [`WINDOW_PER_THREAD`] per thread ahead of the one being
//! delivered, and send each job's patterns in chunks of about [`CHUNK_BYTES`] through a
//! channel of [`CHUNKS_AHEAD`] chunks; the caller's thread delivers the chunks of one job after
//! the other. A worker ahead of the delivery waits when its channel is full, so memory stays
//! under threads × window × chunks × chunk size (a few MB) whatever the number of patterns;
//! when the sink stops, the workers stop at their next pattern.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, sync_channel, Receiver};
use std::sync::{Arc, Mutex};

use super::query::{Found, Task};

/// Bytes of pattern text sent at once.
const CHUNK_BYTES: usize = 1 << 15;
/// Chunks a job may send before they are delivered.
const CHUNKS_AHEAD: usize = 4;
/// Jobs each thread may take ahead of the one being delivered.
const WINDOW_PER_THREAD: usize = 4;
/// Stack of a worker thread (the solo search recurses once per beat of the period).
const WORKER_STACK: usize = 64 << 20;

/// Patterns' texts one after the other, with where each ends.
#[derive(Default)]
struct Chunk {
    text: String,
    ends: Vec<u32>,
}

/// Runs one job, handing each pattern's text to the emitter (which returns `false` to stop).
pub(crate) type RunJob<'a, J> = dyn Fn(J, &mut dyn FnMut(&str) -> bool) + Sync + 'a;

/// Worker threads: the cores available, at most 8.
pub(crate) fn threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(8)
}

/// Runs `jobs` on worker threads with `run` (which hands each pattern's text to its emitter
/// and stops when the emitter returns `false`) and delivers their patterns to `sink` in the
/// order of the jobs. `sequences` gives a task's get-in and get-out, worked out once per task
/// on the caller's thread. `sink` returns `false` to stop. Returns the patterns delivered.
pub(crate) fn ordered<S, J, I>(
    jobs: I,
    run: &RunJob<'_, J>,
    sequences: &dyn Fn(&S) -> (String, String),
    sink: &mut dyn FnMut(&Found) -> bool,
) -> u64
where
    S: Send + Sync,
    J: Send,
    I: Iterator<Item = (Arc<Task<S>>, J)> + Send,
{
    let threads = threads();
    let window = threads * WINDOW_PER_THREAD;
    let jobs = Mutex::new(jobs.enumerate());
    let stop = AtomicBool::new(false);
    type Registration<S> = (usize, Arc<Task<S>>, Receiver<Chunk>);
    let (register, registrations) = channel::<Registration<S>>();
    // One token per job a worker may take before the delivery reaches it.
    let (give_token, tokens) = sync_channel::<()>(window);
    for _ in 0..window {
        let _ = give_token.send(());
    }
    let tokens = Mutex::new(tokens);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let register = register.clone();
            let (jobs, tokens, stop) = (&jobs, &tokens, &stop);
            let worker = move || loop {
                let token = tokens.lock().map(|t| t.recv());
                if !matches!(token, Ok(Ok(()))) || stop.load(Ordering::Relaxed) {
                    return;
                }
                let next = jobs.lock().ok().and_then(|mut jobs| jobs.next());
                let Some((index, (task, job))) = next else {
                    return;
                };
                let (send, receive) = sync_channel::<Chunk>(CHUNKS_AHEAD);
                if register.send((index, task, receive)).is_err() {
                    return;
                }
                let mut chunk = Chunk::default();
                let mut emit = |text: &str| {
                    chunk.text.push_str(text);
                    chunk.ends.push(chunk.text.len() as u32);
                    if chunk.text.len() >= CHUNK_BYTES
                        && send.send(std::mem::take(&mut chunk)).is_err()
                    {
                        return false;
                    }
                    !stop.load(Ordering::Relaxed)
                };
                run(job, &mut emit);
                if !chunk.ends.is_empty() {
                    let _ = send.send(chunk);
                }
            };
            let spawned = std::thread::Builder::new()
                .stack_size(WORKER_STACK)
                .spawn_scoped(scope, worker);
            if spawned.is_err() {
                break;
            }
        }
        drop(register);
        let mut pending: HashMap<usize, (Arc<Task<S>>, Receiver<Chunk>)> = HashMap::new();
        let mut delivered = 0;
        let mut last: Option<(Arc<Task<S>>, String, String)> = None;
        let mut starts = 0;
        'jobs: for index in 0.. {
            let (task, receive) = loop {
                if let Some(job) = pending.remove(&index) {
                    break job;
                }
                match registrations.recv() {
                    Ok((i, task, receive)) => {
                        pending.insert(i, (task, receive));
                    }
                    Err(_) => break 'jobs,
                }
            };
            for chunk in receive.iter() {
                let mut from = 0;
                for &end in &chunk.ends {
                    let pattern = &chunk.text[from..end as usize];
                    from = end as usize;
                    if !last.as_ref().is_some_and(|(t, ..)| Arc::ptr_eq(t, &task)) {
                        let (get_in, get_out) = sequences(&task.start);
                        starts += u64::from(last.is_some());
                        last = Some((task.clone(), get_in, get_out));
                    }
                    let Some((_, get_in, get_out)) = &last else {
                        break 'jobs;
                    };
                    delivered += 1;
                    let found = Found {
                        pattern,
                        period: task.period,
                        ground_state: task.ground_state,
                        get_in,
                        get_out,
                        start: starts,
                    };
                    if !sink(&found) {
                        break 'jobs;
                    }
                }
            }
            let _ = give_token.send(());
        }
        // Stop the workers: those waiting for a token or a full channel are released by
        // the ends dropped here.
        stop.store(true, Ordering::Relaxed);
        drop(give_token);
        drop(pending);
        drop(registrations);
        delivered
    })
}
