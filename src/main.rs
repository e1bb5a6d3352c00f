//! `pixelhit`: runs the queries of a scene file (`scene-format.md`) and prints one JSON line
//! per query.
//!
//! Exit status: 0 when every query was answered, 1 when some query printed an error line,
//! 2 when nothing could run (bad usage, unreadable or invalid scene file).

use std::ffi::OsString;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use pixelhit::{CollisionOptions, DEBUG_MAX_QUERIES, DebugQuery, Query, Scene, debug_image};

const USAGE: &str = "\
usage: pixelhit run SCENE.json [--png OUT.png]
       pixelhit --help
       pixelhit --version

Runs the queries of a pixelhit scene file and prints one JSON object per query, one per
line, on standard output.

  --png OUT.png   also draw the scene and, for each collision_rect query, its
                  overlapping pixels and answer rectangle into a PNG picture
                  (the first 100 such queries answered; the legend and standard
                  error say how many more were left out)

Exit status: 0 when every query was answered, 1 when a query printed an error line,
2 when the scene file cannot be read or is not valid (one message on standard error).
What an \"svg\" object's file has that the tree cannot show is printed on standard
error as warnings; they do not change the exit status.";

/// What the command line asks for.
enum Command {
    Help,
    Version,
    Run { scene: PathBuf, png: Option<PathBuf> },
}

fn parse_args(args: Vec<OsString>) -> Result<Command, String> {
    let mut it = args.into_iter();
    let Some(cmd) = it.next() else {
        return Err("no command given".into());
    };
    match cmd.to_str() {
        Some("--help" | "-h" | "help") => return Ok(Command::Help),
        Some("--version" | "-V") => return Ok(Command::Version),
        Some("run") => {}
        _ => return Err(format!("unknown command {:?}", cmd.to_string_lossy())),
    }
    let mut scene: Option<PathBuf> = None;
    let mut png: Option<PathBuf> = None;
    while let Some(arg) = it.next() {
        match arg.to_str() {
            Some("--help" | "-h") => return Ok(Command::Help),
            Some("--png") => {
                let Some(out) = it.next() else {
                    return Err("--png needs a file name".into());
                };
                if png.replace(PathBuf::from(out)).is_some() {
                    return Err("--png given twice".into());
                }
            }
            Some(s) if s.starts_with("--png=") => {
                let out = s.trim_start_matches("--png=");
                if out.is_empty() {
                    return Err("--png needs a file name".into());
                }
                if png.replace(PathBuf::from(out)).is_some() {
                    return Err("--png given twice".into());
                }
            }
            Some(s) if s.starts_with('-') && s != "-" => {
                return Err(format!("unknown option {s:?}"));
            }
            _ => {
                if scene.is_some() {
                    return Err(format!("unexpected argument {:?}", arg.to_string_lossy()));
                }
                scene = Some(PathBuf::from(arg));
            }
        }
    }
    let Some(scene) = scene else {
        return Err("run needs a scene file".into());
    };
    Ok(Command::Run { scene, png })
}

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    match parse_args(args) {
        Ok(Command::Help) => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Ok(Command::Version) => {
            println!("pixelhit {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        Ok(Command::Run { scene, png }) => run(&scene, png.as_deref()),
        Err(problem) => {
            eprintln!("pixelhit: {problem}\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn run(path: &std::path::Path, png: Option<&std::path::Path>) -> ExitCode {
    let scene = match Scene::load(path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("pixelhit: {e}");
            return ExitCode::from(2);
        }
    };
    // SVG features the tree cannot show do not stop the run, but nobody should miss them.
    for w in scene.warnings() {
        eprintln!("pixelhit: warning: {w}");
    }
    // One run for all the queries, so that what they share is worked out once.
    let answers = scene.queries().iter().zip(scene.answers());
    let Some(out) = png else {
        return print_answers(answers.map(|(_, a)| a));
    };
    // The picture is drawn before anything is printed, so that a failure to make it leaves
    // standard output empty, as every exit status 2 does.
    let answers: Vec<_> = answers.collect();
    let drawn: Vec<DebugQuery> = answers
        .iter()
        .filter(|(_, answer)| answer.is_ok())
        .filter_map(|(q, _)| debug_query(&scene, q))
        .collect();
    if drawn.len() > DEBUG_MAX_QUERIES {
        eprintln!(
            "pixelhit: {}: the picture shows the first {DEBUG_MAX_QUERIES} of the {} collision_rect \
             queries answered; {} more are left out",
            out.display(),
            drawn.len(),
            drawn.len() - DEBUG_MAX_QUERIES
        );
    }
    if let Err(problem) = write_png(&scene, &drawn, out) {
        eprintln!("pixelhit: {problem}");
        return ExitCode::from(2);
    }
    print_answers(answers.into_iter().map(|(_, a)| a))
}

/// The picture's version of a `collision_rect` query that was answered (so its names exist).
fn debug_query(scene: &Scene, q: &Query) -> Option<DebugQuery> {
    let Query::CollisionRect {
        a,
        b,
        parent,
        precise,
        tolerance,
        anti_alias,
        ..
    } = q
    else {
        return None;
    };
    let mut dq = DebugQuery::new(scene.node(a)?, scene.node(b)?, scene.node(parent)?);
    dq.options = CollisionOptions::default()
        .precise(*precise)
        .tolerance(*tolerance)
        .anti_alias(*anti_alias);
    Some(dq)
}

fn write_png(scene: &Scene, queries: &[DebugQuery], out: &std::path::Path) -> Result<(), String> {
    let picture =
        debug_image(&scene.stage, queries).map_err(|e| format!("cannot draw {}: {e}", out.display()))?;
    picture
        .save_with_format(out, image::ImageFormat::Png)
        .map_err(|e| format!("cannot write {}: {e}", out.display()))
}

/// Prints one line per answer (an error line for a query that failed); exit status 1 when
/// some query failed.
fn print_answers(answers: impl Iterator<Item = pixelhit::Result<String>>) -> ExitCode {
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut failed = false;
    for answer in answers {
        let line = answer.unwrap_or_else(|e| {
            failed = true;
            Scene::error_line(&e)
        });
        if let Err(e) = writeln!(out, "{line}") {
            eprintln!("pixelhit: cannot write the output: {e}");
            return ExitCode::from(2);
        }
    }
    if let Err(e) = out.flush() {
        eprintln!("pixelhit: cannot write the output: {e}");
        return ExitCode::from(2);
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
