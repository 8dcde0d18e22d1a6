//! When a view's URL is to mirror its settings. A view mounted writes it
//! in the frame after its first picture: Chromium's `History.replaceState`
//! took 5 to 9 ms of an embed's start in a profile, which the first
//! picture need not wait for. Later changes write it at once.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Link {
    /// Mounted, its first picture still to come.
    AfterFirstPicture,
    /// To be written now.
    Due,
    /// As written last (or never to be: the view does not own the URL).
    Written,
}

impl Link {
    /// A view's link as it mounts: one that does not mirror its settings
    /// in the URL (`owns_hash`) has nothing to wait for.
    pub fn mounted(owns_hash: bool) -> Link {
        match owns_hash {
            true => Link::AfterFirstPicture,
            false => Link::Written,
        }
    }

    /// The settings changed: the link is due, unless the first picture is
    /// still to come (it follows that).
    pub fn settings_changed(&mut self) {
        if *self != Link::AfterFirstPicture {
            *self = Link::Due;
        }
    }

    /// Whether the link is to be written now; it is then written.
    pub fn take_due(&mut self) -> bool {
        let due = *self == Link::Due;
        if due {
            *self = Link::Written;
        }
        due
    }

    /// A frame was drawn: after the first picture the link is due, for the
    /// next frame. Returns whether it is due (so another frame is wanted).
    pub fn frame_drawn(&mut self) -> bool {
        if *self == Link::AfterFirstPicture {
            *self = Link::Due;
        }
        *self == Link::Due
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mounted_view_writes_its_link_in_the_frame_after_its_first_picture_then_at_each_change() {
        let mut link = Link::mounted(true);
        // Mounting sets the settings; nothing is written before the picture.
        link.settings_changed();
        assert!(!link.take_due());
        // The first frame drawn asks for the next, which writes it.
        assert!(link.frame_drawn());
        assert!(link.take_due());
        assert!(!link.frame_drawn(), "written once");
        assert!(!link.take_due());
        link.settings_changed();
        assert!(link.take_due(), "a later change is written at once");
    }

    #[test]
    fn a_view_that_does_not_own_the_url_waits_for_nothing() {
        let mut link = Link::mounted(false);
        assert!(!link.frame_drawn());
        assert!(!link.take_due());
    }
}
