//! One long-lived thread that runs searches one after another, for the front ends that take
//! requests one at a time (the Gomocup brain, `serve`).
//!
//! A thread kept across searches keeps what its game keeps per thread: Gomoku's 4 MiB cache
//! of line shapes stays warm from one move to the next, and is allocated once rather than
//! once a move (a thread per search made the process's memory grow in 4 MiB steps as the
//! allocator's per-thread arenas kept the freed caches; docs/performance.md, "Wave 50").

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc::{self, Sender};

/// A job with what hears its answer, as the thread runs it.
type Job = Box<dyn FnOnce() + Send>;

/// Runs jobs on one named thread, started at the first job. A job that panics does not end
/// the thread: its panic is caught and handed to the job's `answer`; should the thread be
/// gone anyway, the next job starts a new one. Dropping the handle lets the thread end
/// after its current job, without waiting for it.
pub struct JobThread {
    name: String,
    jobs: Option<Sender<Job>>,
}

impl JobThread {
    /// A handle whose thread, named `name`, starts with the first job.
    pub fn new(name: &str) -> Self {
        Self {
            name: name.to_string(),
            jobs: None,
        }
    }

    /// Queues `job` behind any job still running; on the thread, `answer` hears what the
    /// job returned, or `Err` with its panic. Fails only when no thread could be started;
    /// the job is then dropped unrun and `answer` is not called.
    pub fn run<T>(
        &mut self,
        job: impl FnOnce() -> T + Send + 'static,
        answer: impl FnOnce(std::thread::Result<T>) + Send + 'static,
    ) -> std::io::Result<()> {
        let job: Job = Box::new(move || answer(catch_unwind(AssertUnwindSafe(job))));
        let job = match &self.jobs {
            Some(jobs) => match jobs.send(job) {
                Ok(()) => return Ok(()),
                Err(returned) => returned.0,
            },
            None => job,
        };
        let (jobs, queue) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name(self.name.clone())
            .spawn(move || {
                for job in queue {
                    // Only an `answer` that panicked gets here: the thread goes on.
                    let _ = catch_unwind(AssertUnwindSafe(job));
                }
            })?;
        // The thread holds the receiver until this sender is dropped, so this cannot fail.
        let sent = jobs.send(job);
        self.jobs = Some(jobs);
        sent.map_err(|_| std::io::Error::other("the search thread ended at its start"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    thread_local! {
        static RUNS: Cell<u32> = const { Cell::new(0) };
    }

    /// Runs `job` on `thread` and waits for its answer: `Err("panicked")` when it
    /// panicked, `Err("no answer")` when nothing came back.
    fn ask<T: Send + 'static>(
        thread: &mut JobThread,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, &'static str> {
        let (tx, rx) = mpsc::channel();
        let started = thread.run(job, move |answer| {
            let _ = tx.send(answer.map_err(|_| "panicked"));
        });
        started.map_err(|_| "no answer")?;
        rx.recv().unwrap_or(Err("no answer"))
    }

    fn count_run() -> (std::thread::ThreadId, u32) {
        let runs = RUNS.with(|runs| {
            runs.set(runs.get() + 1);
            runs.get()
        });
        (std::thread::current().id(), runs)
    }

    #[test]
    fn jobs_share_one_thread_and_its_thread_locals() {
        let mut thread = JobThread::new("test-jobs");
        let first = ask(&mut thread, count_run).ok();
        let second = ask(&mut thread, count_run).ok();
        let (Some(first), Some(second)) = (first, second) else {
            panic!("a job did not answer: {first:?} {second:?}");
        };
        assert_eq!(first.0, second.0, "both jobs ran on the same thread");
        assert_ne!(first.0, std::thread::current().id());
        assert_eq!(
            (first.1, second.1),
            (1, 2),
            "the thread-local survived the first job"
        );
        let name = ask(&mut thread, || {
            std::thread::current().name().map(str::to_string)
        });
        assert_eq!(name, Ok(Some("test-jobs".to_string())));
    }

    #[test]
    fn a_panicking_job_leaves_the_thread_running() {
        let mut thread = JobThread::new("test-panics");
        let before = ask(&mut thread, count_run).ok();
        let panicked: Result<(), _> = ask(&mut thread, || panic!("a job's panic, on purpose"));
        assert_eq!(panicked, Err("panicked"), "the answer heard the panic");
        let after = ask(&mut thread, count_run).ok();
        let (Some(before), Some(after)) = (before, after) else {
            panic!("a job did not answer: {before:?} {after:?}");
        };
        assert_eq!(
            before.0, after.0,
            "the same thread ran the job after the panic"
        );
        assert_eq!(after.1, before.1 + 1);
    }
}
