//! The X11 side of the screen source: windows found by title by walking the window tree
//! (works with or without a window manager, unlike lists kept by one), their content area in
//! screen pixels, and the watch on the user's hands during a fill — where the pointer is and
//! whether Esc is held (the server's key map, so no focus or grab is needed).

use x11rb::connection::Connection;
use x11rb::protocol::xproto::{Atom, AtomEnum, ConnectionExt as _, MapState, Window};
use x11rb::rust_connection::RustConnection;

use super::{ScreenError, ScreenRect};

/// Deepest level of the window tree searched (clients sit at depth 1 or, under a reparenting
/// window manager, 2–3).
const MAX_TREE_DEPTH: usize = 6;

/// A window on the screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WindowInfo {
    /// Its title.
    pub title: String,
    /// Its content area, screen pixels.
    pub rect: ScreenRect,
    /// The process that owns it, as the window says (`_NET_WM_PID`; winit and most toolkits
    /// set it), if it says.
    pub pid: Option<u32>,
}

impl WindowInfo {
    /// Whether this window belongs to this process (the app's own window, never captured).
    pub fn is_own(&self) -> bool {
        self.pid == Some(std::process::id())
    }
}

/// A connection to the X server named by `DISPLAY`.
pub(crate) struct X11 {
    conn: RustConnection,
    root: Window,
    net_wm_name: Atom,
    net_wm_pid: Atom,
    utf8_string: Atom,
}

impl X11 {
    pub(crate) fn connect() -> Result<X11, ScreenError> {
        super::check_display()?;
        let display = std::env::var("DISPLAY").unwrap_or_default();
        if display.is_empty() {
            return Err(ScreenError::WindowsNeedX11);
        }
        let err = |reason: String| ScreenError::Connect {
            display: display.clone(),
            reason,
        };
        let (conn, screen) = x11rb::connect(None).map_err(|e| err(e.to_string()))?;
        let root = conn
            .setup()
            .roots
            .get(screen)
            .map(|s| s.root)
            .ok_or_else(|| err("no such screen".into()))?;
        let atom = |name: &[u8]| -> Result<Atom, ScreenError> {
            Ok(conn
                .intern_atom(false, name)
                .map_err(|e| err(e.to_string()))?
                .reply()
                .map_err(|e| err(e.to_string()))?
                .atom)
        };
        let net_wm_name = atom(b"_NET_WM_NAME")?;
        let utf8_string = atom(b"UTF8_STRING")?;
        let net_wm_pid = atom(b"_NET_WM_PID")?;
        Ok(X11 {
            conn,
            root,
            net_wm_name,
            net_wm_pid,
            utf8_string,
        })
    }

    fn failed(e: impl std::fmt::Display) -> ScreenError {
        ScreenError::Capture(format!("X11 request failed: {e}"))
    }

    /// Every viewable window with a title, topmost last.
    pub(crate) fn windows(&self) -> Result<Vec<WindowInfo>, ScreenError> {
        let mut found = Vec::new();
        self.walk(self.root, 0, &mut found)?;
        Ok(found)
    }

    fn walk(
        &self,
        window: Window,
        depth: usize,
        found: &mut Vec<WindowInfo>,
    ) -> Result<(), ScreenError> {
        let tree = self
            .conn
            .query_tree(window)
            .map_err(Self::failed)?
            .reply()
            .map_err(Self::failed)?;
        for child in tree.children {
            // A window destroyed meanwhile answers with an error: skip it.
            let Ok(Ok(attrs)) = self.conn.get_window_attributes(child).map(|c| c.reply()) else {
                continue;
            };
            if attrs.map_state != MapState::VIEWABLE {
                continue;
            }
            if let Some(title) = self.title(child).filter(|t| !t.is_empty())
                && let Some(rect) = self.rect(child)
            {
                let pid = self.pid(child);
                found.push(WindowInfo { title, rect, pid });
            } else if depth + 1 < MAX_TREE_DEPTH {
                self.walk(child, depth + 1, found)?;
            }
        }
        Ok(())
    }

    fn title(&self, window: Window) -> Option<String> {
        let get = |property: Atom, kind: Atom| {
            self.conn
                .get_property(false, window, property, kind, 0, 1024)
                .ok()?
                .reply()
                .ok()
                .filter(|r| !r.value.is_empty())
                .map(|r| String::from_utf8_lossy(&r.value).into_owned())
        };
        get(self.net_wm_name, self.utf8_string)
            .or_else(|| get(AtomEnum::WM_NAME.into(), AtomEnum::STRING.into()))
    }

    /// The `_NET_WM_PID` of a window (a CARDINAL).
    fn pid(&self, window: Window) -> Option<u32> {
        let reply = self
            .conn
            .get_property(false, window, self.net_wm_pid, AtomEnum::CARDINAL, 0, 1)
            .ok()?
            .reply()
            .ok()?;
        reply.value32()?.next()
    }

    /// The window's content area in root (screen) coordinates.
    fn rect(&self, window: Window) -> Option<ScreenRect> {
        let geometry = self.conn.get_geometry(window).ok()?.reply().ok()?;
        let at = self
            .conn
            .translate_coordinates(window, self.root, 0, 0)
            .ok()?
            .reply()
            .ok()?;
        Some(ScreenRect {
            x: at.dst_x as i32,
            y: at.dst_y as i32,
            width: geometry.width as u32,
            height: geometry.height as u32,
        })
    }

    /// Where the pointer is, screen pixels.
    pub(crate) fn pointer(&self) -> Result<(i32, i32), ScreenError> {
        let p = self
            .conn
            .query_pointer(self.root)
            .map_err(Self::failed)?
            .reply()
            .map_err(Self::failed)?;
        Ok((p.root_x as i32, p.root_y as i32))
    }

    /// Whether the Escape key is held down now.
    pub(crate) fn escape_down(&self) -> Result<bool, ScreenError> {
        let setup = self.conn.setup();
        let (min, max) = (setup.min_keycode, setup.max_keycode);
        let mapping = self
            .conn
            .get_keyboard_mapping(min, max - min + 1)
            .map_err(Self::failed)?
            .reply()
            .map_err(Self::failed)?;
        const XK_ESCAPE: u32 = 0xff1b;
        let per = mapping.keysyms_per_keycode.max(1) as usize;
        let keys = self
            .conn
            .query_keymap()
            .map_err(Self::failed)?
            .reply()
            .map_err(Self::failed)?
            .keys;
        for (i, syms) in mapping.keysyms.chunks(per).enumerate() {
            if syms.contains(&XK_ESCAPE) {
                let code = min as usize + i;
                if keys[code / 8] & (1 << (code % 8)) != 0 {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }
}

/// The titled, viewable windows on the X11 screen, topmost last.
pub fn list_windows() -> Result<Vec<WindowInfo>, ScreenError> {
    X11::connect()?.windows()
}

/// The screen rectangles of this process's own windows (none where windows cannot be listed:
/// Wayland without XWayland, no display).
pub fn own_window_rects() -> Vec<ScreenRect> {
    list_windows()
        .map(|list| {
            list.into_iter()
                .filter(WindowInfo::is_own)
                .map(|w| w.rect)
                .collect()
        })
        .unwrap_or_default()
}

/// The window whose title is `name`, else the one whose title contains it (ignoring case).
pub(crate) fn find_window(name: &str) -> Result<WindowInfo, ScreenError> {
    pick_window(list_windows()?, name)
}

fn pick_window(windows: Vec<WindowInfo>, name: &str) -> Result<WindowInfo, ScreenError> {
    // Topmost first: the one the user sees.
    if let Some(w) = windows.iter().rev().find(|w| w.title == name) {
        return Ok(w.clone());
    }
    let lower = name.to_lowercase();
    let matching: Vec<&WindowInfo> = windows
        .iter()
        .rev()
        .filter(|w| w.title.to_lowercase().contains(&lower))
        .collect();
    let mut titles: Vec<String> = matching.iter().map(|w| w.title.clone()).collect();
    titles.dedup();
    match (matching.first(), titles.len()) {
        (Some(w), 1) => Ok((*w).clone()),
        (Some(_), _) => Err(ScreenError::AmbiguousWindow {
            name: name.into(),
            titles,
        }),
        (None, _) => Err(ScreenError::WindowNotFound {
            name: name.into(),
            titles: windows
                .iter()
                .rev()
                .take(8)
                .map(|w| w.title.clone())
                .collect(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(title: &str) -> WindowInfo {
        WindowInfo {
            title: title.into(),
            rect: ScreenRect {
                x: 0,
                y: 0,
                width: 10,
                height: 10,
            },
            pid: None,
        }
    }

    #[test]
    fn exact_title_wins_then_a_unique_part() {
        let list = vec![w("Sudoku Game"), w("Sudoku"), w("Terminal")];
        assert_eq!(
            pick_window(list.clone(), "Sudoku").map(|w| w.title),
            Ok("Sudoku".into())
        );
        assert_eq!(
            pick_window(list.clone(), "term").map(|w| w.title),
            Ok("Terminal".into())
        );
        assert!(matches!(
            pick_window(list.clone(), "sudoku g"),
            Ok(WindowInfo { ref title, .. }) if title == "Sudoku Game"
        ));
        assert!(matches!(
            pick_window(vec![w("Sudoku A"), w("Sudoku B")], "sudoku"),
            Err(ScreenError::AmbiguousWindow { .. })
        ));
        assert!(matches!(
            pick_window(list, "Chess"),
            Err(ScreenError::WindowNotFound { titles, .. }) if titles.len() == 3
        ));
    }
}
