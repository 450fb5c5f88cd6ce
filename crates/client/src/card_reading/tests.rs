//! The page's reading of a card, now read here (the page only words it): ported from the
//! page's own tests of it.

use super::*;

fn read(command: &str, cwd: Option<&str>, task: &str) -> CardReading {
    CardReading::read("Run a command", Some(command), cwd, task)
}

fn home() -> Option<&'static str> {
    Some("/home/agent")
}

fn within(folders: &[&str]) -> Place {
    Place::Within {
        folders: folders.iter().map(|f| (*f).to_owned()).collect(),
    }
}

fn deletion(kind: DeletionKind, name: &str, place: Place) -> Deletion {
    Deletion {
        kind,
        name: name.to_owned(),
        place,
    }
}

fn known(place: KnownPlace, name: &str) -> NamedPlace {
    NamedPlace {
        known: Some(place),
        name: name.to_owned(),
    }
}

fn folder(name: &str) -> NamedPlace {
    NamedPlace {
        known: None,
        name: name.to_owned(),
    }
}

#[test]
fn splits_on_spaces_and_separators_keeping_quoted_words_whole() {
    assert_eq!(
        shell_words(r#"rm -r "My Files/old one" && echo 'done; really'"#),
        vec![
            vec!["rm", "-r", "My Files/old one"],
            vec!["echo", "done; really"]
        ]
    );
    assert_eq!(
        shell_words(r"rm a\ b; ls | wc"),
        vec![vec!["rm", "a b"], vec!["ls"], vec!["wc"]]
    );
}

#[test]
fn a_recursive_rm_deletes_a_folder_in_a_place() {
    let r = read("rm -r ~/Documents/old-reports", home(), "Tidy up");
    assert!(r.destructive);
    assert!(r.needs_the_window());
    assert_eq!(
        r.deletes,
        vec![deletion(
            DeletionKind::Folder,
            "old-reports",
            within(&["Documents"])
        )]
    );
    assert_eq!(r.mismatch, None);
}

#[test]
fn reads_relative_paths_sudo_patterns_several_items_find_windows_and_disks() {
    let relative = read("sudo rm -f notes.txt", Some("/home/ada/Desktop"), "");
    assert_eq!(
        relative.deletes,
        vec![deletion(
            DeletionKind::File,
            "notes.txt",
            within(&["Desktop"])
        )]
    );
    assert_eq!(
        read("rm ~/Downloads/*.tmp", home(), "").deletes,
        vec![deletion(
            DeletionKind::Matching,
            "*.tmp",
            within(&["Downloads"])
        )]
    );
    assert_eq!(
        read("rm -rf ~/a ~/b", home(), "").deletes,
        vec![
            deletion(DeletionKind::Folder, "a", Place::Home),
            deletion(DeletionKind::Folder, "b", Place::Home)
        ]
    );
    assert_eq!(
        read(r#"find ~/Downloads -name "*.iso" -delete"#, home(), "").deletes,
        vec![deletion(
            DeletionKind::Found,
            "Downloads",
            within(&["Downloads"])
        )]
    );
    assert_eq!(
        read(
            r"Remove-Item -Recurse 'C:\Users\ada\Documents\Old'",
            home(),
            ""
        )
        .deletes,
        vec![deletion(
            DeletionKind::Folder,
            "Old",
            within(&["Documents"])
        )]
    );
    assert_eq!(
        read("mkfs.ext4 /dev/sdb1", home(), "").deletes,
        vec![deletion(DeletionKind::Disk, "/dev/sdb1", Place::Top)]
    );
    assert_eq!(
        read("dd if=/dev/zero of=/dev/sda bs=1M", home(), "").deletes,
        vec![deletion(DeletionKind::Disk, "/dev/sda", Place::Top)]
    );
}

#[test]
fn a_command_it_does_not_know_is_not_destructive_but_still_needs_a_look() {
    let r = CardReading::read(
        "Send the email",
        Some("mail --send draft-1"),
        home(),
        "Send the report",
    );
    assert_eq!(r, CardReading::default());
    // "rm" as an argument, or a subcommand of another program, is not a deletion.
    assert!(!read("echo rm -r ~/x", home(), "").destructive);
    assert!(!read("git rm --cached x", home(), "").destructive);
}

#[test]
fn a_card_whose_own_title_says_delete_is_destructive_without_a_command() {
    let r = CardReading::read("Delete the selected items", None, home(), "");
    assert!(r.destructive && r.deletes.is_empty());
    assert!(!CardReading::read("Deleted items stay in the bin", None, home(), "").destructive);
    assert!(!CardReading::read("Send the email", None, home(), "").needs_the_window());
}

#[test]
fn warns_when_the_task_named_another_place_than_the_command_deletes_in() {
    assert_eq!(
        read(
            "rm -r ~/Documents/old-reports",
            home(),
            "Delete the old files in Downloads"
        )
        .mismatch,
        Some(vec![known(KnownPlace::Downloads, "downloads")])
    );
    assert_eq!(
        read(
            "rm -r ~/Documents/old-reports",
            home(),
            "Delete the old drafts folder"
        )
        .mismatch,
        Some(vec![folder("drafts")])
    );
}

#[test]
fn says_nothing_when_the_target_is_where_the_task_said_or_no_place_was_named() {
    for (command, task) in [
        ("rm -r ~/Documents/drafts", "Delete the old drafts folder"),
        ("rm -r ~/Downloads/installers", "Clean up my downloads"),
        ("rm -r ~/Documents/old-reports", "Delete everything"),
        ("rm -r ~/Dokumente/entwuerfe", "Lösche alles in Dokumente"),
        ("rm -r ~/Documents/drafts", "Lösche alles in Dokumente"),
    ] {
        assert_eq!(
            read(command, home(), task).mismatch,
            None,
            "{command} / {task}"
        );
    }
}

#[test]
fn finds_the_places_a_task_names_in_either_language() {
    let shown =
        |task: &str| -> Vec<NamedPlace> { named(task).into_iter().map(|n| n.shown).collect() };
    assert_eq!(
        shown("Delete the old files in Downloads"),
        vec![known(KnownPlace::Downloads, "downloads")]
    );
    assert_eq!(
        shown(r#"Empty the folder called "exports" on my Desktop"#),
        vec![known(KnownPlace::Desktop, "desktop"), folder("exports")]
    );
    assert_eq!(shown("Find the weather in Paris"), vec![]);
    assert_eq!(
        shown("Räum meinen Schreibtisch auf"),
        vec![known(KnownPlace::Desktop, "schreibtisch")]
    );
    assert_eq!(
        shown("Lösche die alten Fotos in Dokumente"),
        vec![
            known(KnownPlace::Photos, "fotos"),
            known(KnownPlace::Documents, "dokumente")
        ]
    );
    assert_eq!(
        read(
            "rm -r ~/Bilder/urlaub",
            home(),
            "Lösche den Ordner „Entwürfe“"
        )
        .mismatch,
        Some(vec![folder("entwürfe")])
    );
    assert_eq!(
        read(
            "rm -r ~/Music/old",
            home(),
            "Delete the old files in Dokumente"
        )
        .mismatch,
        Some(vec![known(KnownPlace::Documents, "dokumente")])
    );
}

#[test]
fn the_known_places_are_the_names_the_locales_give_them() {
    let catalog = |text: &str| -> serde_json::Value { serde_json::from_str(text).unwrap() };
    let en = catalog(include_str!("../../../../locales/en/approval.json"));
    let de = catalog(include_str!("../../../../locales/de/approval.json"));
    for (place, names) in KNOWN_PLACES {
        let key = serde_json::to_value(place).unwrap();
        let key = format!("knownPlace.{}", key.as_str().unwrap());
        for locale in [&en, &de] {
            let name = locale[&key].as_str().unwrap().to_lowercase();
            assert!(names.contains(&name.as_str()), "{key}: {name} in {names:?}");
        }
    }
}
